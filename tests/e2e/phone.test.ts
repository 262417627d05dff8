import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectAccessible, launchBrowser, logIn, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 19, on a phone (390 px wide): the buy box within the first screen of a product page;
// the reader's chrome folds so the text starts on the first screen; a swipe turns the page.
// Demo data: book 13 is for sale (french-forms.test.ts); the student owns product 1, an EPUB
// (reader.test.ts).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

function phone(): Promise<BrowserContext> {
  return browser.newContext({
    baseURL: baseUrl(),
    locale: 'en-US',
    viewport: PHONE,
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
}

/** Whether the element's box lies wholly inside the first screen, the page not scrolled. */
async function onFirstScreen(page: Page, box: { y: number; height: number } | null) {
  expect(box).not.toBeNull();
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  return box!.y >= 0 && box!.y + box!.height <= PHONE.height;
}

const status = (page: Page) => page.getByRole('status').filter({ hasText: /^Page \d+ of \d+/ });

/** A finger's quick stroke across the page, from x1 to x2 (real touch events, via CDP). */
async function swipe(context: BrowserContext, page: Page, x1: number, x2: number, y: number) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x1, y }] });
  for (let i = 1; i <= 5; i += 1) {
    const x = x1 + ((x2 - x1) * i) / 5;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

describe('on a phone', () => {
  it('the Add To Cart button of a product page is on the first screen', async () => {
    const context = await phone();
    const page = await context.newPage();
    await page.goto('/book/13');
    await waitForHydration(page);
    const button = page.getByRole('button', { name: 'Add To Cart' });
    expect(await onFirstScreen(page, await button.boundingBox())).toBe(true);
    // The title comes first when read in order, the cover's text alternative before it.
    const order = await page.evaluate(() => {
      const h1 = document.querySelector('main h1');
      const buy = [...document.querySelectorAll('main button')].find(
        (b) => b.textContent?.trim() === 'Add To Cart',
      );
      return h1 && buy ? h1.compareDocumentPosition(buy) & Node.DOCUMENT_POSITION_FOLLOWING : 0;
    });
    expect(order).toBeTruthy();
    await expectAccessible(page);
    await context.close();
  });

  it("the reader's tools fold behind a button, the text starts on the first screen, and a swipe turns the page", async () => {
    const context = await phone();
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'phone-reader' }));
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await status(page).waitFor();
    const toggle = page.getByRole('button', { name: 'Reading tools' });
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('region', { name: 'Reading tools' }).isVisible()).toBe(false);
    // The first line of the book's text is on the first screen.
    const firstLine = await page.evaluate(() => {
      const text = document.querySelector('.reader-text');
      if (!text) return null;
      const walker = document.createTreeWalker(text, NodeFilter.SHOW_TEXT, {
        acceptNode: (node) =>
          node.textContent?.trim() ? NodeFilter.FILTER_ACCEPT : NodeFilter.FILTER_SKIP,
      });
      const node = walker.nextNode();
      if (!node) return null;
      const range = document.createRange();
      range.selectNodeContents(node);
      const rect = range.getClientRects()[0];
      return rect ? { y: rect.top, height: rect.height } : null;
    });
    expect(await onFirstScreen(page, firstLine)).toBe(true);
    await expectAccessible(page);

    // The tools open and close again from their button.
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page
      .getByRole('region', { name: 'Reading tools' })
      .getByText('Table of contents')
      .waitFor();
    await expectAccessible(page);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // A swipe to the left turns to the next page, to the right back again.
    const first = (await status(page).innerText()).trim();
    const area = (await page.locator('.reader__page').boundingBox())!;
    // A stroke across the top of the text, on the first screen.
    const y = area.y + 60;
    expect(y).toBeLessThan(PHONE.height);
    await swipe(context, page, area.x + area.width - 40, area.x + 40, y);
    await page.waitForFunction(
      (old) =>
        [...document.querySelectorAll('output')].some((o) => {
          const text = o.textContent?.trim() ?? '';
          return /^Page \d+ of \d+/.test(text) && text !== old;
        }),
      first,
    );
    const second = (await status(page).innerText()).trim();
    expect(second).not.toBe(first);
    await swipe(context, page, area.x + 40, area.x + area.width - 40, y);
    await page.waitForFunction(
      (expected) =>
        [...document.querySelectorAll('output')].some((o) => o.textContent?.trim() === expected),
      first,
    );
    // The keyboard still turns pages.
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(
      (expected) =>
        [...document.querySelectorAll('output')].some((o) => o.textContent?.trim() === expected),
      second,
    );
    await context.close();
  });
});
