import type { Page } from 'playwright-core';

// The reader's text as a student selects it and sees it painted (issue 16 study tools).

/** Selects the first `length` characters of the chapter's first paragraph, as a reader would. */
export function selectWords(page: Page, length: number): Promise<string> {
  return page.evaluate((n) => {
    const paragraph = document.querySelector('.reader__page section.reader-text p');
    const text = paragraph?.firstChild;
    if (!(text instanceof Text)) throw new Error('no paragraph text');
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, Math.min(n, text.length));
    const selection = getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return range.toString();
  }, length);
}

/** How many highlights of a colour the browser paints now. */
export const painted = (page: Page, colour: string) =>
  page.evaluate((name) => CSS.highlights.get(`reader-hl-${name}`)?.size ?? 0, colour);
