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

/** An element that starts a paragraph or a line of its own. */
const BLOCK_MARKUP = /<\/?(p|br|div|li|ul|ol|h[1-6]|table|tr|blockquote|dl|dt|dd|pre|hr)\b/i;
/** An HTML character reference: `&eacute;`, `&#39;`, `&#x2019;`. */
const CHARACTER_REFERENCE = /&(#\d+|#x[0-9a-f]+|[a-z][a-z0-9]*);/i;

/**
 * Text whose paragraphs are its blank lines, as HTML paragraphs (and its other line ends as
 * line breaks), for html-to-text, which otherwise takes a line end for a space.
 */
function paragraphsAsHtml(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t]*\n/)
    .map((paragraph) => `<p>${paragraph.replace(/\n/g, '<br>')}</p>`)
    .join('');
}

/**
 * Plain text of a description in the given ONIX text format. Real feeds taught two more cases
 * (issue 15, session 23): plain text with a few inline tags and its paragraphs as blank lines
 * (a publisher's `<b>` and `<i>` in textformat 06): the paragraphs are kept; and plain text
 * whose characters were escaped twice (`n&#39;est`, `inqui&eacute;tante`): they are decoded.
 */
export function plainDescription(text: string, textformat: string | null | undefined): string {
  const markup = MARKUP_FORMATS.has(textformat ?? '') || LOOKS_LIKE_MARKUP.test(text);
  let plain: string;
  if (markup) {
    plain = convert(BLOCK_MARKUP.test(text) ? text : paragraphsAsHtml(text), OPTIONS);
  } else if (CHARACTER_REFERENCE.test(text)) {
    plain = convert(paragraphsAsHtml(text.replace(/</g, '&lt;')), OPTIONS);
  } else {
    plain = text.replace(/\r\n?/g, '\n');
  }
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
