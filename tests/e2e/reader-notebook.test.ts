import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';
import { painted, selectWords } from './reader-text.ts';

// Issue 16, study tools: highlights in colours, a note on a highlight, bookmarks, kept on the
// server, shown in the notebook panel, found on another device, by keyboard and in words. The
// demo student's book 1 is an EPUB (reader.test.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the notebook, as a student studying on a laptop and then a phone', () => {
  it('highlights in green with a note and a bookmark, finds them on another device, goes to one and removes it', async () => {
    const user = await makeUser({ like: 'student', label: 'notebook' });
    const laptop = await newContext(browser);
    const page = await laptop.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, user);
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await page.locator('.reader__page section.reader-text').waitFor();
    await page.getByText('Notebook', { exact: true }).click();
    await page.getByText('No highlights or bookmarks yet.').waitFor();

    // Nothing of the book selected: said so, nothing made.
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await page.getByText('Select some of the book’s text first.').waitFor();

    await page.getByRole('radio', { name: 'Green' }).check();
    const words = await selectWords(page, 40);
    expect(words.length).toBeGreaterThan(10);
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await page.getByText('Highlighted in Green.').waitFor();
    expect(await painted(page, 'green')).toBe(1);
    const item = page.locator('.reader-notebook__item').filter({ hasText: /^Green highlight, / });
    expect(await item.locator('blockquote').innerText()).toBe(words.trim());

    await item.getByRole('button', { name: 'Add a note' }).click();
    await page.getByLabel('Your note').fill('Key idea for the exam');
    await page.getByRole('button', { name: 'Save note' }).click();
    await page.getByText('Note saved.').waitFor();
    expect(await item.getByText('Key idea for the exam').isVisible()).toBe(true);

    // By keyboard: Next highlight goes to it and says it, its colour, words and note.
    await page.getByRole('button', { name: 'Next highlight' }).focus();
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({
        hasText: /^Highlight 1 of 1, Green, Chapter 1: .+ Your note: Key idea for the exam$/,
      })
      .waitFor();

    await page.getByRole('button', { name: 'Bookmark this page' }).click();
    await page.getByText('Page bookmarked.').waitFor();
    const bookmark = page
      .locator('.reader-notebook__item')
      .filter({ hasText: /^Bookmark, Chapter 1/ });
    expect(await bookmark.count()).toBe(1);
    // It holds the page's first words, whole: its last word is a word of the chapter's text.
    const quote = (await bookmark.locator('blockquote').innerText()).trim();
    const chapterWords = new Set(
      (await page.locator('.reader-book').innerText()).split(/[\s.,;:!?«»“”"()]+/),
    );
    expect(quote.length).toBeGreaterThan(10);
    expect(
      chapterWords.has(
        quote
          .split(/[\s.,;:!?«»“”"()]+/)
          .filter(Boolean)
          .at(-1)!,
      ),
    ).toBe(true);

    // Export: the notes as a Markdown file saved by the browser, the quote within the book's
    // copy allowance, and the student told what it holds.
    await page.getByLabel('File format').selectOption('markdown');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export my notes' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/-notes\.md$/);
    const markdown = readFileSync((await download.path())!, 'utf8');
    expect(markdown).toMatch(/^# My notes: /);
    expect(markdown).toContain('Key idea for the exam');
    expect(markdown).toContain(`> ${words.trim().slice(0, 20)}`);
    await page.getByText('2 highlights and bookmarks exported.').waitFor();
    // The quotes exported count as copying, and the Restrictions say so at once.
    const copyLine = page.getByRole('region', { name: 'Restrictions' }).getByText(/^Copy\/Paste: /);
    expect(await copyLine.innerText()).toMatch(/\(\d*[1-9]\d* of [\d,]+ characters used\)$/);
    await expectAccessible(page);
    await laptop.close();

    // A phone, another browser: the same notebook, the highlight painted on the text.
    const phone = await newContext(browser);
    const small = await phone.newPage();
    await small.setViewportSize({ width: 390, height: 844 });
    await logIn(small, user);
    await small.goto('/book/read/1?chapter=2');
    await waitForHydration(small);
    await small.locator('.reader__page section.reader-text').waitFor();
    expect(await painted(small, 'green')).toBe(0);
    await small.getByRole('button', { name: 'Reading tools' }).click();
    await small.getByText('Notebook', { exact: true }).click();
    const there = small.locator('.reader-notebook__item').filter({ hasText: /^Green highlight, / });
    await there.getByText('Key idea for the exam').waitFor();
    // Filter by colour: only the green highlight, not the bookmark.
    await small.getByLabel('Show').selectOption('green');
    expect(await small.locator('.reader-notebook__item').count()).toBe(1);
    await small.getByLabel('Show').selectOption('all');
    expect(await small.locator('.reader-notebook__item').count()).toBe(2);
    // Go to it, from chapter 2: chapter 1 opens and the highlight is painted there.
    await there.getByRole('button', { name: 'Go to it' }).click();
    await small
      .getByRole('status')
      .filter({ hasText: /^Page \d+ of \d+, Chapter 1: / })
      .waitFor();
    await expect.poll(() => painted(small, 'green')).toBe(1);
    // On a phone the tools fold away, so the page gone to is what shows.
    expect(
      await small.getByRole('button', { name: 'Reading tools' }).getAttribute('aria-expanded'),
    ).toBe('false');
    await expectAccessible(small);
    await small.getByRole('button', { name: 'Reading tools' }).click();
    await there.getByRole('button', { name: 'Remove' }).click();
    await small.getByText('Removed from your notebook.').waitFor();
    await expect.poll(() => painted(small, 'green')).toBe(0);
    expect(await small.locator('.reader-notebook__item').count()).toBe(1);
    await phone.close();
  });

  it('a highlight by keyboard: Shift and the arrows extend the selection without turning the page, Enter on the button makes it', async () => {
    const user = await makeUser({ like: 'student', label: 'notebook-keys' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, user);
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await page.locator('.reader__page section.reader-text').waitFor();
    await page.getByText('Notebook', { exact: true }).click();
    const place = await page
      .getByRole('status')
      .filter({ hasText: /^Page \d+ of \d+/ })
      .innerText();
    // The keyboard user is in the book's text (where the reader put the focus), and selects
    // from a word on (a caret, with the browser's caret browsing).
    await page.locator('.reader__page section.reader-text').focus();
    const start = await selectWords(page, 4);
    for (let i = 0; i < 12; i++) await page.keyboard.press('Shift+ArrowRight');
    const selected = await page.evaluate(() => getSelection()!.toString());
    expect(selected.length).toBeGreaterThan(start.length + 8);
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: /^Page \d+ of \d+/ })
        .innerText(),
    ).toBe(place);
    await page.getByRole('button', { name: 'Highlight selection' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Highlighted in Yellow.').waitFor();
    expect(await painted(page, 'yellow')).toBe(1);
    const item = page.locator('.reader-notebook__item').filter({ hasText: /^Yellow highlight, / });
    expect(await item.locator('blockquote').innerText()).toBe(selected.trim());
    await context.close();
  });
});
