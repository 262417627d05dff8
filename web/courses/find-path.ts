import type { FinderChoices } from '#domain/courses/course-finder.ts';

export const FINDER_PATH = '/courses/find';

/** The finder URL of some choices: each step a GET query, so every step is a plain link. */
export function finderPath(chosen: FinderChoices): string {
  const query = new URLSearchParams();
  if (chosen.school) query.set('school', String(chosen.school.id));
  if (chosen.term) query.set('term', chosen.term.key);
  if (chosen.department) query.set('department', chosen.department.code);
  if (chosen.course) query.set('course', String(chosen.course.id));
  const search = query.toString();
  return search ? `${FINDER_PATH}?${search}` : FINDER_PATH;
}

export const finderSectionPath = (sectionId: number) => `${FINDER_PATH}/sections/${sectionId}`;
