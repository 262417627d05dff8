import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';
import { selectWords } from './reader-text.ts';

// Issue 16, what a student met walking the reader (session 22): each step ends in a state the
// person can see, nothing widens the page past the screen, the focus stays where they work,
// and the place and settings survive a reload made at once. Book 1 is an EPUB of several
// chapters, book 2 a PDF of 3 pages (the demo student's).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
const message = (page: Page, text: string) =>
  page.locator('.reader__message').filter({ hasText: text }).waitFor();
const status = (page: Page) => page.locator('.reader__status');

async function openBook(page: Page, path: string) {
  await page.goto(path);
  await waitForHydration(page);
  await page.locator('.reader__status').filter({ hasText: /^Page/ }).waitFor();
}

describe('the reader at its edges', () => {
  it('an EPUB: the ends of the book, empty and long input, the notebook’s focus and its words', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-edges' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, user);
    await openBook(page, '/book/read/1');
    // How to select words with the keyboard is said beside the book.
    await page
      .getByText(/turn on your browser’s caret browsing with F7, then hold Shift/)
      .waitFor();

    // The first page: Previous says so.
    await page.getByRole('button', { name: 'Previous page' }).click();
    await message(page, 'This is the start of the book.');

    // Go to page with nothing typed: what to type.
    await page.getByText('Go to page', { exact: true }).click();
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: /^Enter a page number, from \S+ to \S+\.$/ })
      .waitFor();

    // A long query without spaces: the answer wraps in the column.
    await page.getByText('Search in this book', { exact: true }).click();
    await page.getByLabel('Words to find').fill('x'.repeat(200));
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.getByRole('status').filter({ hasText: 'No results for' }).waitFor();
    expect(await scrollsSideways(page)).toBe(false);

    // A chapter's heading grows with the text size.
    const heading = page
      .locator('.reader__page .reader-book h1, .reader__page .reader-book h2')
      .first();
    const before = await heading.evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
    await page.getByText('Display settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Larger text' }).click();
    await expect
      .poll(() => heading.evaluate((el) => parseFloat(getComputedStyle(el).fontSize)))
      .toBeGreaterThan(before);

    // The notebook.
    await page.getByText('Notebook', { exact: true }).click();
    await selectWords(page, 30);
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await page.getByText('Highlighted in Yellow.').waitFor();
    // The same words again: said, not a second highlight; in another colour, recoloured.
    await selectWords(page, 30);
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await message(page, 'These words are already highlighted in Yellow.');
    await selectWords(page, 30);
    await page.getByRole('radio', { name: 'Green' }).check();
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await message(page, 'Highlighted in Green.');
    expect(await page.locator('.reader-notebook__item').count()).toBe(1);
    const item = page.locator('.reader-notebook__item').filter({ hasText: /^Green highlight, / });
    await item.waitFor();
    // An empty note is not "saved"; the focus comes back to the note's button.
    await item.getByRole('button', { name: 'Add a note' }).click();
    await page.getByLabel('Your note').fill('   ');
    await page.getByRole('button', { name: 'Save note' }).click();
    await message(page, 'The note is empty: nothing was saved.');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Add a note');
    // A note of one long word: kept in the column, said in a few words.
    await item.getByRole('button', { name: 'Add a note' }).click();
    await page.getByLabel('Your note').fill('y'.repeat(3000));
    await page.getByRole('button', { name: 'Save note' }).click();
    await message(page, 'Note saved.');
    expect(await scrollsSideways(page)).toBe(false);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Edit note');
    await page.getByRole('button', { name: 'Next highlight' }).click();
    const said = page.locator('.reader__message').filter({ hasText: /^Highlight 1 of 1/ });
    await said.waitFor();
    expect((await said.innerText()).length).toBeLessThan(500);
    // The colour filter with no highlight of that colour says so.
    await page.getByLabel('Show').selectOption('pink');
    await page.getByText('None of your highlights is pink.').waitFor();
    await page.getByLabel('Show').selectOption('all');
    // A page is bookmarked once.
    await page.getByRole('button', { name: 'Bookmark this page' }).click();
    await message(page, 'Page bookmarked.');
    await page.getByRole('button', { name: 'Bookmark this page' }).click();
    await message(page, 'This page is already bookmarked.');
    expect(
      await page
        .locator('.reader-notebook__item')
        .filter({ hasText: /^Bookmark, / })
        .count(),
    ).toBe(1);
    // Removing one puts the focus on the next item, not the top of the page.
    await item.getByRole('button', { name: 'Remove' }).click();
    await message(page, 'Removed from your notebook.');
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent))
      .toBe('Go to it');
    await expectAccessible(page);
    await context.close();
  });

  it('a reload at once keeps the place reached from the contents and the text size just chosen', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-reload' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, user);
    await openBook(page, '/book/read/1?chapter=1');
    await page.getByText('Table of contents', { exact: true }).click();
    const third = page.locator('.reader__tools').getByRole('link').nth(2);
    const chapter = (await third.innerText()).trim();
    await third.click();
    await expect.poll(() => status(page).textContent()).toContain(chapter);
    // The address no longer names chapter 1.
    expect(new URL(page.url()).searchParams.get('chapter')).toBe(null);
    await page.getByText('Display settings', { exact: true }).click();
    await page.getByRole('button', { name: 'Larger text' }).click();
    await page.getByText('Text size 110%').waitFor();
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => status(page).textContent()).toContain(chapter);
    await page.getByText('Display settings', { exact: true }).click();
    await page.getByText('Text size 110%').waitFor();
    await context.close();
  });

  it('a PDF made larger than the screen scrolls in its area: it never covers the tools', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-pdf-zoom' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, user);
    await openBook(page, '/book/read/2');
    await page
      .getByRole('region', { name: 'Page 1' })
      .getByText(/\w{4,}/)
      .first()
      .waitFor();
    // A PDF's text is made larger by its zoom (issue 38), beside the page.
    const larger = page.getByRole('button', { name: 'Zoom in' });
    for (let i = 0; i < 2; i += 1) await larger.click();
    await page.getByRole('group', { name: 'Zoom' }).getByText('150%').waitFor();
    await page.waitForTimeout(300);
    const layout = await page.evaluate(() => {
      const area = document.querySelector('.pdf-pages')!.getBoundingClientRect();
      const tools = document.querySelector('.reader__tools')!.getBoundingClientRect();
      const button = [...document.querySelectorAll('button')].find(
        (b) => b.textContent === 'Zoom in',
      )!;
      const r = button.getBoundingClientRect();
      const top = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return {
        clear: area.left >= tools.right - 1 || area.top >= tools.bottom - 1,
        buttonOnTop: top === button || button.contains(top),
        scrolls: document.querySelector('.pdf-pages')!.scrollWidth > area.width,
      };
    });
    expect(layout).toEqual({ clear: true, buttonOnTop: true, scrolls: true });
    expect(await scrollsSideways(page)).toBe(false);
    await context.close();
  });
});
