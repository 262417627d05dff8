// How a course's code is shown (issue 39: opaque names round-trip byte-exact). A course a
// campus roster made keeps the code the campus wrote ('CHM-210', 'ÉCO-1001', '化学101'); a
// course made here, or one whose code staff changed, is its department and number.

export type CourseCodeParts = { department: string; number: string; code?: string | null };

export function courseCodeLabel(course: CourseCodeParts): string {
  if (course.code != null && course.code !== '') return course.code;
  return course.department === '' ? course.number : `${course.department} ${course.number}`;
}
