// What a page shows in a sentence or a label comes from one of two places (issue 13):
// - the store's own words, derived from codes in the data (a feature the store describes, a
//   statement of the W3C accessibility display guide, an edition number): a catalog message,
//   which the page shows in its own language;
// - someone else's words (a publisher's summary, a feature a publisher wrote): the text as
//   given, in the language of its source, which the page marks with `lang` (WCAG 3.1.2).

/** A catalog message id (i18n/messages) and its arguments, translated where it is shown. */
export type MessageWording = { message: string; values?: Record<string, string | number> };

/** Text as its source gave it, shown in the source's language. */
export type SourceWording = { text: string };

export type Wording = MessageWording | SourceWording;

export function isMessageWording(wording: Wording): wording is MessageWording {
  return 'message' in wording;
}
