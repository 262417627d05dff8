import { convert } from 'html-to-text';

// A publisher's description as the store keeps it: plain text, paragraphs separated by a blank
// line, list items on lines of their own. ONIX sends descriptions as plain text or as (X)HTML
// (textformat 02, 03, 05; list 34); markup is read by html-to-text, never passed to a page, so
// nothing a feed writes can run in a shopper's browser.

const MARKUP_FORMATS = new Set(['02', '03', '05']);
const LOOKS_LIKE_MARKUP = /<\/?[a-z][a-z0-9]*(\s[^<>]*)?\/?>/i;

const OPTIONS = {
  wordwrap: false as const,
  preserveNewlines: false,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'h4', options: { uppercase: false } },
    { selector: 'h5', options: { uppercase: false } },
    { selector: 'h6', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
    { selector: 'ul', options: { itemPrefix: '• ' } },
  ],
};

/** Plain text of a description in the given ONIX text format. */
export function plainDescription(text: string, textformat: string | null | undefined): string {
  const markup = MARKUP_FORMATS.has(textformat ?? '') || LOOKS_LIKE_MARKUP.test(text);
  const plain = markup ? convert(text, OPTIONS) : text.replace(/\r\n?/g, '\n');
  return plain
    .split(/\n{2,}/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
        .filter(Boolean)
        .join('\n'),
    )
    .filter(Boolean)
    .join('\n\n');
}
