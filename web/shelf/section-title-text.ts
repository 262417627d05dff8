import type { MessageParams } from '#i18n/format-message.ts';

type Translate = (id: string, params?: MessageParams) => string;

/**
 * A section's title in the page's language (spec 1 §2 Page titles): department and number,
 * plus ': Section {number}' when the section has a number ('BIO 101: Section 001').
 */
export function sectionTitleText(
  t: Translate,
  title: { course: string; section: string | null },
): string {
  return title.section
    ? t('section.title', { course: title.course, number: title.section })
    : title.course;
}
