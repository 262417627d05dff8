// Issue 39: what the term dashboards filter by. The course types of spec 1 §1 / spec 2 §9
// (the check on courses.course_type); a module of its own, so the page's form may use it.
export const COURSE_TYPES = ['inclusive_access', 'lms_ecommerce', 'cds', 'student_choice'] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

export type DashboardQuery = {
  orgId: number | null;
  termId: number | null;
  department: string | null;
  courseType: CourseType | null;
};
