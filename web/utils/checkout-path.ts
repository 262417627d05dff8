/** spec 2 §7 Checkout: /checkout/?ecommerce_course_id={courseId} when bought for a course. */
export function checkoutPath(lines: readonly { courseSectionId: number | null }[]): string {
  const courseId = lines.find((line) => line.courseSectionId !== null)?.courseSectionId;
  return courseId ? `/checkout/?ecommerce_course_id=${courseId}` : '/checkout/';
}
