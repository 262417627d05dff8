import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';
import { painted } from './reader-text.ts';

// Issue 16, study tools in a PDF: highlights, notes and bookmarks on a PDF's pages, made in
// its text layer, kept on the server and found on another device. The demo student's book 2
// is a PDF (reader.test.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pageRegion = (page: Page, n: number) => page.getByRole('region', { name: `Page ${n}` });

/** Waits until page n of the PDF shows its text layer. */
async function pdfPageShown(page: Page, n: number) {
  await pageRegion(page, n)
    .getByText(/\w{4,}/)
    .first()
    .waitFor();
}

/**
 * Selects the first two lines of a drawn PDF page's text layer, across its line end, as a
 * reader dragging over them would; the words selected.
 */
function selectFirstLines(page: Page, n: number): Promise<string> {
  return page.evaluate((index) => {
    const layer = document.querySelector(`.pdf-page[data-page="${index}"] .textLayer`)!;
    const spans = [...layer.querySelectorAll('span')].filter((s) => s.textContent?.trim());
    const lineEnd = [...layer.childNodes].findIndex((node) => node.nodeName === 'BR');
    const secondLine = spans.find(
      (span) => [...layer.childNodes].indexOf(span) > lineEnd && lineEnd >= 0,
    );
    if (!spans[0] || !secondLine) throw new Error('no two lines on the page');
    const range = document.createRange();
    range.setStart(spans[0].firstChild!, 0);
    range.setEnd(secondLine.firstChild!, secondLine.textContent!.length);
    const selection = getSelection()!;
    selection.removeAllRanges();
    selection.addRange(range);
    return `${spans[0].textContent}\n${secondLine.textContent}`;
  }, n - 1);
}

/** The words the browser paints in a colour now. */
const paintedWords = (page: Page, colour: string) =>
  page.evaluate(
    (name) => [...(CSS.highlights.get(`reader-hl-${name}`) ?? [])].map((r) => String(r)),
    colour,
  );

describe('the notebook in a PDF, as a student studying on a laptop and then a phone', () => {
  it('highlights across a line end with a note, bookmarks a page, and finds both on another device', async () => {
    const user = await makeUser({ like: 'student', label: 'pdf-notebook' });
    const laptop = await newContext(browser);
    const page = await laptop.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, user);
    await page.goto('/book/read/2');
    await waitForHydration(page);
    await pdfPageShown(page, 1);
    await page.getByText('Notebook', { exact: true }).click();
    await page.getByText('No highlights or bookmarks yet.').waitFor();

    await page.getByRole('radio', { name: 'Pink' }).check();
    const words = await selectFirstLines(page, 1);
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await page.getByText('Highlighted in Pink.').waitFor();
    // Painted over exactly the words selected, on the page's text layer.
    await expect.poll(() => paintedWords(page, 'pink')).toEqual([words.replace('\n', '')]);
    const item = page.locator('.reader-notebook__item').filter({ hasText: /^Pink highlight, / });
    expect(await item.innerText()).toMatch(/^Pink highlight, Page 1/);
    const [firstLine, secondLine] = words.split('\n');
    expect(await item.locator('blockquote').innerText()).toContain(firstLine!.trim());
    expect(await item.locator('blockquote').innerText()).toContain(secondLine!.trim());

    await item.getByRole('button', { name: 'Add a note' }).click();
    await page.getByLabel('Your note').fill('Who wrote it');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.getByText('Note saved.').waitFor();

    // The next page, bookmarked: its first words.
    await page.locator('.pdf-pages').focus();
    await page.keyboard.press('ArrowRight');
    await pdfPageShown(page, 2);
    expect(await painted(page, 'pink')).toBe(0);
    await page.getByRole('button', { name: 'Bookmark this page' }).click();
    await page.getByText('Page bookmarked.').waitFor();
    await page
      .locator('.reader-notebook__item')
      .filter({ hasText: /^Bookmark, Page 2/ })
      .waitFor();
    await expectAccessible(page);
    await laptop.close();

    // A phone, another browser: the PDF opens at page 2, where the student was; the notebook
    // has both, and "Go to it" shows page 1 with the highlight painted.
    const phone = await newContext(browser);
    const small = await phone.newPage();
    await small.setViewportSize({ width: 390, height: 844 });
    await logIn(small, user);
    await small.goto('/book/read/2');
    await waitForHydration(small);
    await pdfPageShown(small, 2);
    await small.getByRole('button', { name: 'Reading tools' }).click();
    await small.getByText('Notebook', { exact: true }).click();
    const there = small.locator('.reader-notebook__item').filter({ hasText: /^Pink highlight, / });
    await there.getByText('Who wrote it').waitFor();
    expect(await small.locator('.reader-notebook__item').count()).toBe(2);
    await there.getByRole('button', { name: 'Go to it' }).click();
    await pdfPageShown(small, 1);
    await expect.poll(() => paintedWords(small, 'pink')).toEqual([words.replace('\n', '')]);
    // On a phone the tools fold away, so the page gone to is what shows.
    expect(
      await small.getByRole('button', { name: 'Reading tools' }).getAttribute('aria-expanded'),
    ).toBe('false');
    await expectAccessible(small);

    // Scrolling down the pages, every drawn page has its highlights painted.
    await small.getByRole('button', { name: 'Reading tools' }).click();
    await small.getByText('Display settings', { exact: true }).click();
    await small.getByRole('radio', { name: 'Scrolling' }).check();
    await expect.poll(() => paintedWords(small, 'pink')).toEqual([words.replace('\n', '')]);
    await there.getByRole('button', { name: 'Remove' }).click();
    await small.getByText('Removed from your notebook.').waitFor();
    await expect.poll(() => painted(small, 'pink')).toBe(0);
    await phone.close();
  });

  it('in French: the notebook names the PDF page of a bookmark', async () => {
    const user = await makeUser({ like: 'student', label: 'pdf-notebook-fr' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, user);
    const next = '/book/read/2';
    await chooseLanguage(page, 'Français (Canada)', next);
    await pdfPageShown(page, 1);
    await page.getByText('Carnet', { exact: true }).click();
    await page.getByRole('button', { name: 'Mettre un signet à cette page' }).click();
    await page.getByText('Signet ajouté.').waitFor();
    await page
      .locator('.reader-notebook__item')
      .filter({ hasText: /^Signet, Page 1/ })
      .waitFor();
    await expectAccessible(page);
    await context.close();
  });
});
