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
import { feedPictureBook, makeOwnership, makeUser } from './fixtures.ts';
import { painted } from './reader-text.ts';

// Issue 16, faithful pages: "Fixed-layout EPUB (rendition:layout pre-paginated): each page
// shown whole at the size of the viewport, one or two pages (spreads) per screen, zoom; no
// empty pages." The demo feed's second e-book is a picture book of six 600×800 pages: a
// cover by itself, then left and right pages, each a picture with its words placed on it.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const pages = (page: Page) => page.locator('.reader__page .reader-fixed__page');
const box = async (page: Page, selector: string) => {
  const found = await page.locator(selector).first().boundingBox();
  if (!found) throw new Error(`${selector} is not shown`);
  return found;
};

describe('a fixed-layout picture book in the reader', () => {
  it('shows each page whole, two facing pages on a wide screen, one on a narrow one, and zooms', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-fxl' });
    const productId = await feedPictureBook();
    await makeOwnership(user.email, productId);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, user);
    expect((await page.goto(`/book/read/${productId}`))?.status()).toBe(200);
    await waitForHydration(page);

    // The cover, alone, whole, at the page's proportions, with its picture.
    await expect.poll(() => pages(page).count()).toBe(1);
    const status = page.locator('.reader__status');
    await expect.poll(() => status.textContent()).toBe('Page 1 of 7');
    const cover = await box(page, '.reader-fixed__page');
    expect(cover.width / cover.height).toBeCloseTo(600 / 800, 2);
    const area = await box(page, '.reader-text--fixed');
    expect(cover.height).toBeGreaterThan(area.height * 0.95);
    expect(cover.height).toBeLessThanOrEqual(area.height + 1);
    // Whole on the screen: nothing of the page below its bottom edge.
    expect(cover.y).toBeGreaterThanOrEqual(0);
    expect(cover.y + cover.height).toBeLessThanOrEqual(900);
    expect(await page.getByRole('img', { name: /^The cover of / }).isVisible()).toBe(true);

    // The next screen: pages 2 and 3 side by side, the left-hand page on the left.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => pages(page).count()).toBe(2);
    await expect.poll(() => status.textContent()).toBe('Pages 2–3 of 7');
    const [left, right] = [
      await box(page, '.reader-fixed__page[data-part="1"]'),
      await box(page, '.reader-fixed__page[data-part="2"]'),
    ];
    expect(right.x).toBeGreaterThanOrEqual(left.x + left.width - 1);
    expect(Math.abs(left.y - right.y)).toBeLessThan(1);
    expect(left.y + left.height).toBeLessThanOrEqual(900);
    // The words where the publisher put them: under the picture, inside the page.
    const words = await box(page, '.reader-fixed__page[data-part="1"] .b-words');
    expect(words.y - left.y).toBeGreaterThan(left.height * 0.7);
    expect(words.y + words.height).toBeLessThanOrEqual(left.y + left.height + 1);
    expect(await page.getByText('The first reader opens a book by the window.').isVisible()).toBe(
      true,
    );
    // A box the book placed "fixed" stays on its page, not on the reader's screen.
    const folio = await box(page, '.reader-fixed__page[data-part="1"] .b-folio');
    expect(folio.x).toBeGreaterThanOrEqual(left.x);
    expect(folio.x + folio.width).toBeLessThanOrEqual(left.x + left.width + 1);
    expect(folio.y + folio.height).toBeLessThanOrEqual(left.y + left.height + 1);
    await expectAccessible(page);

    // The spread stays still: no page is fetched again and again (a facing page was, without end).
    const partCalls: string[] = [];
    page.on('request', (request) => {
      if (/\/api\/reading\/\d+\/parts\//.test(request.url())) partCalls.push(request.url());
    });
    await page.waitForTimeout(1_500);
    expect(partCalls.length).toBeLessThanOrEqual(2);

    // The notebook on a spread: words of the right-hand page are highlighted on that page.
    await page.getByText('Notebook', { exact: true }).click();
    const selected = await page.evaluate(() => {
      const text = document.querySelector('.reader-fixed__page[data-part="2"] .b-words')!;
      const range = document.createRange();
      range.selectNodeContents(text);
      getSelection()!.removeAllRanges();
      getSelection()!.addRange(range);
      return range.toString();
    });
    expect(selected.trim().length).toBeGreaterThan(5);
    await page.getByRole('button', { name: 'Highlight selection' }).click();
    await page.getByText('Highlighted in Yellow.').waitFor();
    expect(await painted(page, 'yellow')).toBe(1);
    const highlight = page
      .locator('.reader-notebook__item')
      .filter({ hasText: /^Yellow highlight, / });
    expect(await highlight.locator('blockquote').innerText()).toBe(selected.trim());
    await page.getByRole('button', { name: 'Bookmark this page' }).click();
    await page.getByText('Page bookmarked.').waitFor();
    await page.getByText('Notebook', { exact: true }).click();

    // Zoom: larger than the area, which then scrolls; Fit page brings the spread back whole.
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await expect
      .poll(async () => (await box(page, '.reader-fixed__page')).width)
      .toBeCloseTo(left.width * 1.5, 0);
    expect(await page.getByText('150%', { exact: true }).isVisible()).toBe(true);
    const scrolls = await page
      .locator('.reader-text--fixed')
      .evaluate(
        (el) => el.scrollWidth > el.clientWidth && getComputedStyle(el).overflow === 'auto',
      );
    expect(scrolls).toBe(true);
    await page.getByRole('button', { name: 'Fit page' }).click();
    await expect
      .poll(async () => (await box(page, '.reader-fixed__page')).width)
      .toBeCloseTo(left.width, 0);

    // The last screen, then back: a spread turns whole.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => status.textContent()).toBe('Pages 4–5 of 7');
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => status.textContent()).toBe('Pages 6–7 of 7');
    // The back cover is a page drawn in SVG by itself (an SVG spine item): whole, beside the
    // last page at its size, its picture named and its words text.
    const [last, back] = [
      await box(page, '.reader-fixed__page[data-part="5"]'),
      await box(page, '.reader-fixed__page[data-part="6"]'),
    ];
    expect(back.width).toBeCloseTo(last.width, 0);
    expect(back.height).toBeCloseTo(last.height, 0);
    expect(back.x).toBeGreaterThanOrEqual(last.x + last.width - 1);
    const drawing = await box(page, '.reader-fixed__page[data-part="6"] svg');
    expect(drawing.width).toBeCloseTo(back.width, 0);
    expect(drawing.height).toBeCloseTo(back.height, 0);
    expect(
      await page
        .getByRole('img', { name: 'A lamp by an open book, the night outside the window' })
        .isVisible(),
    ).toBe(true);
    expect(
      await page.locator('.reader-fixed__page[data-part="6"]').getByText('The End').isVisible(),
    ).toBe(true);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Previous page' }).click();
    await expect.poll(() => status.textContent()).toBe('Pages 4–5 of 7');

    // A narrow (portrait) screen: one page at a time, still whole.
    await page.setViewportSize({ width: 700, height: 1000 });
    await expect.poll(() => pages(page).count()).toBe(1);
    const single = await box(page, '.reader-fixed__page');
    const narrow = await box(page, '.reader-text--fixed');
    expect(single.width).toBeLessThanOrEqual(narrow.width + 1);
    expect(single.height).toBeLessThanOrEqual(narrow.height + 1);
    expect(single.width / single.height).toBeCloseTo(600 / 800, 2);
    expect(single.y + single.height).toBeLessThanOrEqual(1000);
    await context.close();
  });

  it('finds words on a page and marks them there, zoomed in too', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-fxl-search' });
    const productId = await feedPictureBook();
    await makeOwnership(user.email, productId);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, user);
    await page.goto(`/book/read/${productId}`);
    await waitForHydration(page);
    const status = page.locator('.reader__status');
    await expect.poll(() => status.textContent()).toBe('Page 1 of 7');
    await page.getByRole('button', { name: 'Zoom in' }).click();
    await page.getByRole('button', { name: 'Zoom in' }).click();

    await page.getByText('Search in this book', { exact: true }).click();
    await page.getByLabel('Words to find').fill('map of the WORLD');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.getByRole('status').filter({ hasText: '1 result for “map of the WORLD”' }).waitFor();
    await page.getByRole('button', { name: /a map of the world unfolds/ }).click();
    await expect.poll(() => status.textContent()).toBe('Pages 4–5 of 7');
    // Marked on its page, the fourth, and in view although the pages are larger than the area.
    const marked = () =>
      page.evaluate(() => {
        const [range] = [...(CSS.highlights.get('reader-hit') ?? [])] as Range[];
        if (!range) return null;
        const rect = range.getBoundingClientRect();
        const area = document.querySelector('.reader-text--fixed')!.getBoundingClientRect();
        return {
          text: range.toString(),
          part: range.startContainer.parentElement
            ?.closest('[data-part]')
            ?.getAttribute('data-part'),
          inView:
            rect.top >= area.top - 1 &&
            rect.bottom <= area.bottom + 1 &&
            rect.left >= area.left - 1 &&
            rect.right <= area.right + 1,
        };
      });
    await expect.poll(marked).toEqual({ text: 'map of the world', part: '3', inView: true });
    await expectAccessible(page);
    // Turning the page unmarks it.
    await page.getByRole('button', { name: 'Next page' }).click();
    await expect.poll(() => status.textContent()).toBe('Pages 6–7 of 7');
    await expect.poll(marked).toBe(null);

    // Display settings offer only what acts on pages the publisher laid out: the theme.
    await page.getByText('Display settings', { exact: true }).click();
    await page
      .getByText(
        'This book’s pages are laid out by its publisher: its font, line spacing and margins stay as printed.',
      )
      .waitFor();
    const groups = await page
      .locator('.reader__tools details[open] fieldset')
      .evaluateAll((sets) => sets.map((set) => set.querySelector('legend')?.textContent));
    expect(groups).toEqual(['Theme']);
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expectAccessible(page);
    await context.close();
  });

  it('in French: the spread, the zoom and the status', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-fxl-fr' });
    const productId = await feedPictureBook();
    await makeOwnership(user.email, productId);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1280, height: 900 });
    await logIn(page, user);
    const next = `/book/read/${productId}`;
    await chooseLanguage(page, 'Français (Canada)', `${next}?chapter=2`);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr-CA');
    const status = page.locator('.reader__status');
    await expect.poll(() => status.textContent()).toBe('Pages 2 à 3 sur 7');
    await page.getByRole('button', { name: 'Zoom avant' }).click();
    expect(await page.getByText('150 %', { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Page entière' }).isEnabled()).toBe(true);
    await expectAccessible(page);
    await context.close();
  });
});
