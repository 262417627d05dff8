import type { CourseType } from '#domain/courses/section-rules.ts';

// Issue 39: what the term dashboards filter by. The course types are Course Manager's own list
// (domain/courses/section-rules.ts COURSE_TYPES, with its labels), so a type it can give a course
// is one the dashboard can filter by; a module of its own, so the page's form may use it.
export type DashboardQuery = {
  orgId: number | null;
  termId: number | null;
  department: string | null;
  courseType: CourseType | null;
};
