import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, newContext, waitForHydration } from './browser.ts';

// Issue 13 (fast on a phone): the main thread's work while a page hydrates. Two defects the
// Lighthouse gate found, each with its own test: the page's stylesheet written again by every
// render of the document (a restyle and relayout of the whole page), and the browser's Intl data
// loaded on the main thread by the first price or count. And the search results: the first
// few are elements when the page is parsed, the others follow when it is idle.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The search for chemistry at this window size, hydrated, and its list of results. */
async function searchResults(size: { width: number; height: number }) {
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.setViewportSize(size);
  await page.goto(`${baseUrl()}/search?terms=chemistry`);
  await waitForHydration(page);
  return { context, page, results: page.locator('ol.results > li') };
}

/** Whether the element with this id is wholly on the screen. */
function wholeOnScreen(page: Page, id: string): Promise<boolean> {
  return page.locator(`[id="${id}"]`).evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  });
}

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
      const seen = { rewrites: 0, serverItems: [] as Element[] };
      (window as unknown as { listWork: typeof seen }).listWork = seen;
      document.addEventListener('DOMContentLoaded', () => {
        const list = document.querySelector('ol.results');
        if (!list) return;
        seen.serverItems = Array.from(list.children);
        // Adding the later results is expected; changing or removing what is there is not.
        new MutationObserver((records) => {
          for (const record of records) {
            if (record.type !== 'childList' || record.target !== list) seen.rewrites += 1;
            else if (record.removedNodes.length > 0) seen.rewrites += 1;
          }
        }).observe(list, { childList: true, characterData: true, subtree: true, attributes: true });
      });
    });
    const page = await context.newPage();
    await page.goto(`${baseUrl()}/search?terms=chemistry`);
    await waitForHydration(page);
    const range = (await page.getByText(/^1 - \d+ of \d+ results$/).textContent()) ?? '';
    const shown = Number(/^1 - (\d+) of/.exec(range)?.[1]);
    expect(shown).toBeGreaterThan(6);
    const results = page.locator('ol.results > li');
    // The first results are written as elements, the others follow once the page is idle.
    await expect.poll(() => results.count()).toBe(shown);
    const kept = await page.evaluate(() => {
      const { listWork } = window as unknown as {
        listWork: { rewrites: number; serverItems: Element[] };
      };
      const list = document.querySelector('ol.results');
      return {
        rewrites: listWork.rewrites,
        written: listWork.serverItems.length,
        samePlaces: listWork.serverItems.every((item, index) => list?.children[index] === item),
      };
    });
    expect(kept).toEqual({ rewrites: 0, written: 6, samePlaces: true });
    // Each result once, in the server's order: the ids run as the cards' headings do.
    const ids = await results.locator('h2').evaluateAll((headings) => headings.map((h) => h.id));
    expect(new Set(ids).size).toBe(shown);
    // A new search from the navbar, inside the app: the list now renders in the browser.
    const searchBox = page.getByRole('searchbox').first();
    await searchBox.fill('biology');
    await searchBox.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Search results for biology.' }).waitFor();
    await expect
      .poll(async () => (await results.first().getByRole('heading').textContent()) ?? '')
      .toMatch(/biolog/i);
    // Back to the first search: every result again, rendered in the browser.
    await page.goBack();
    await page.getByRole('heading', { level: 1, name: 'Search results for chemistry.' }).waitFor();
    await expect.poll(() => results.count()).toBe(shown);
    expect(await page.locator('noscript').count()).toBe(0);
    // Its cards still navigate inside the app, to the product they name.
    const last = results.last();
    const title = (await last.getByRole('heading').textContent()) ?? '';
    await last.getByRole('link', { name: `See Details: ${title}` }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await context.close();
  });

  it('a search document carries each result once: its markup, not its data again', async () => {
    // The route's data of a document leaves the cards out (web/utils/server-only.ts): the
    // browser keeps the server's markup. A navigation in the browser gets them as data.
    const html = await (await fetch(`${baseUrl()}/search?terms=chemistry`)).text();
    const title = /id="product-\d+-title"><a [^>]*>([^<]+)<\/a>/.exec(html)?.[1] ?? '';
    expect(title).not.toBe('');
    expect(html).toContain(`>${title}</a></h2>`);
    // React Router's scripts that hand the route data to the browser.
    const routeData = [...html.matchAll(/<script>(window\.__reactRouterContext[^<]*)<\/script>/g)]
      .map((script) => script[1])
      .join('');
    expect(routeData).toContain('chemistry');
    expect(routeData).not.toContain(title);
    const data = await (await fetch(`${baseUrl()}/search.data?terms=chemistry`)).text();
    expect(data).toContain(title);
  });

  it('a reload far down the results comes back to the same result', async () => {
    const { context, page, results } = await searchResults({ width: 800, height: 700 });
    // Further down than the first paint's results reach.
    await expect.poll(() => results.count()).toBeGreaterThan(20);
    const twentieth = results.nth(19);
    await twentieth.scrollIntoViewIfNeeded();
    const headingId = (await twentieth.locator('h2').getAttribute('id')) ?? '';
    const before = await page.evaluate(() => window.scrollY);
    expect(before).toBeGreaterThan(2000);
    await page.reload();
    await waitForHydration(page);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(before);
    expect(await wholeOnScreen(page, headingId)).toBe(true);
    await context.close();
  });

  it('back from a result reached by scrolling, the phone is at that result again', async () => {
    // The results after the first six are laid out only near the screen (content-visibility):
    // the position React Router restores must still be the same result's.
    const { context, page, results } = await searchResults({ width: 412, height: 823 });
    await expect.poll(() => results.count(), { timeout: 15_000 }).toBeGreaterThan(30);
    // Scrolled to as a reader would, a screen at a time: what passes is laid out.
    const target = results.nth(24);
    for (let step = 0; step < 40; step += 1) {
      const top = await target.evaluate((item) => item.getBoundingClientRect().top);
      if (top < 400) break;
      await page.mouse.wheel(0, 600);
      await page.waitForTimeout(50);
    }
    const heading = target.locator('h2');
    const headingId = (await heading.getAttribute('id')) ?? '';
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(3000);
    await target.locator('h2 a').click();
    await page.waitForURL(/\/book\//);
    await page.goBack();
    await page.waitForURL(/\/search\?/);
    await expect.poll(() => wholeOnScreen(page, headingId)).toBe(true);
    await context.close();
  });

  it('shows every result without JavaScript', async () => {
    const context = await browser.newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/search?terms=chemistry');
    const range = (await page.getByText(/^1 - \d+ of \d+ results$/).textContent()) ?? '';
    const shown = Number(/^1 - (\d+) of/.exec(range)?.[1]);
    const results = page.locator('ol.results > li');
    expect(await results.count()).toBe(shown);
    expect(await results.last().isVisible()).toBe(true);
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
