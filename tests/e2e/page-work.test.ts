import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, waitForHydration } from './browser.ts';

// Issue 13 (fast on a phone): the main thread's work while a page hydrates. Two defects the
// Lighthouse gate found, each with its own test: the page's stylesheet written again by every
// render of the document (a restyle and relayout of the whole page), and the browser's Intl data
// loaded on the main thread by the first price or count.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the document head is written once', () => {
  it('keeps the stylesheet and the head scripts through hydration and a client navigation', async () => {
    const context = await newContext(browser);
    // Counts every change to the inline stylesheet and head scripts once the server's HTML is
    // parsed: hydration and later renders must leave them as the server wrote them.
    await context.addInitScript(() => {
      const counts = { style: 0, scripts: 0 };
      (window as unknown as { headWrites: typeof counts }).headWrites = counts;
      document.addEventListener('DOMContentLoaded', () => {
        const style = document.getElementById('app-styles');
        if (style) {
          new MutationObserver((list) => {
            counts.style += list.length;
          }).observe(style, { childList: true, characterData: true, subtree: true });
        }
        for (const script of document.head.querySelectorAll('script')) {
          new MutationObserver((list) => {
            counts.scripts += list.length;
          }).observe(script, { childList: true, characterData: true, subtree: true });
        }
      });
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/search?terms=chemistry`);
    await waitForHydration(page);
    const firstResult = page.getByRole('list').getByRole('heading', { level: 2 }).first();
    const title = (await firstResult.textContent()) ?? '';
    await firstResult.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    const writes = await page.evaluate(
      () => (window as unknown as { headWrites: { style: number; scripts: number } }).headWrites,
    );
    expect(writes).toEqual({ style: 0, scripts: 0 });
    await context.close();
  });
});

describe('a list of product cards', () => {
  it('hydrates as the server wrote it, and shows the next search after a client navigation', async () => {
    const context = await newContext(browser);
    await context.addInitScript(() => {
      const counts = { results: 0 };
      (window as unknown as { listWrites: typeof counts }).listWrites = counts;
      document.addEventListener('DOMContentLoaded', () => {
        const list = document.querySelector('ol.results');
        if (list) {
          new MutationObserver((records) => {
            counts.results += records.length;
          }).observe(list, {
            childList: true,
            characterData: true,
            subtree: true,
            attributes: true,
          });
        }
      });
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/search?terms=chemistry`);
    await waitForHydration(page);
    const results = page.locator('ol.results > li');
    const chemistryCount = await results.count();
    expect(chemistryCount).toBeGreaterThan(10);
    const writes = await page.evaluate(
      () => (window as unknown as { listWrites: { results: number } }).listWrites.results,
    );
    expect(writes).toBe(0);
    // A new search from the navbar, inside the app: the list now renders in the browser.
    const searchBox = page.getByRole('searchbox').first();
    await searchBox.fill('biology');
    await searchBox.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Search results for biology.' }).waitFor();
    await expect
      .poll(async () => (await results.first().getByRole('heading').textContent()) ?? '')
      .toMatch(/biolog/i);
    // Its cards still navigate inside the app, to the product they name.
    const title = (await results.first().getByRole('heading').textContent()) ?? '';
    await results
      .first()
      .getByRole('link', { name: `See Details: ${title}` })
      .click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await context.close();
  });
});

describe("the browser's Intl data", () => {
  it('is loaded by a worker the head starts, which the page policy allows', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') refused.push(message.text());
    });
    const worker = page.waitForEvent('worker');
    await page.goto(`${baseUrl()}/search?terms=chemistry`);
    expect(new URL((await worker).url()).pathname).toBe('/intl-warm-up.js');
    await waitForHydration(page);
    expect(refused.filter((text) => /Content Security Policy|intl-warm-up/.test(text))).toEqual([]);
    await context.close();
  });
});
