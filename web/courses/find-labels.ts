import type { AcademicTerm } from '#domain/courses/academic-term.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import type { FinderCourse, FinderDepartment } from '#domain/courses/course-finder.ts';

type T = (id: string, params?: Record<string, string | number>) => string;

/** 'Fall 2026', 'Hiver-printemps 2027' (the year as written, never '2,026'). */
export const termLabel = (t: T, term: AcademicTerm) =>
  t(`courseFinder.term.${term.season}`, { year: String(term.year) });

/** 'Biology (BIO)'; a code without a name is said once. */
export const departmentLabel = (t: T, department: FinderDepartment) =>
  department.name === department.code
    ? department.code
    : t('courseFinder.department', { name: department.name, code: department.code });

/** 'BIO 101' */
export const courseCode = (course: Pick<FinderCourse, 'department' | 'number' | 'code'>) =>
  courseCodeLabel(course);
