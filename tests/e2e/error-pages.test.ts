import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 19, 'Everyone else on the walk': a forbidden CSV link shows the forbidden page, not
// raw JSON; the 404 page offers search and home to visitors who are not signed in, and
// signed-in users keep the shelf action (spec 2 §8 texts, spec 1 §2 the action to the shelf).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('error pages', () => {
  it('a student opening the opt-status CSV sees the forbidden page, with the way to the shelf', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'forbidden-csv' }));
    const answer = await page.goto('/manage/sections/1/opt-status.csv');
    expect(answer?.status()).toBe(403);
    expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
    expect(answer?.headers()['content-disposition']).toBeUndefined();
    await page
      .getByRole('heading', { level: 1, name: "Sorry, you can't access this page." })
      .waitFor();
    await page.getByRole('link', { name: 'Go to My Shelf' }).click();
    await page.getByRole('heading', { level: 1, name: 'My Shelf' }).waitFor();
    await page.goBack();
    await page
      .getByRole('heading', { level: 1, name: "Sorry, you can't access this page." })
      .waitFor();
    await expectAccessible(page);
    // A signed-in user's 404 keeps the shelf action.
    await page.goto('/no-such-page-here');
    await page
      .getByRole('heading', { level: 1, name: "Sorry, that page doesn't exist." })
      .waitFor();
    await page.getByRole('main').getByRole('link', { name: 'Go to My Shelf' }).waitFor();
    await context.close();
  });

  it('a visitor’s 404 page offers a search box and a link home', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const answer = await page.goto('/no-such-page-here');
    expect(answer?.status()).toBe(404);
    await page
      .getByRole('heading', { level: 1, name: "Sorry, that page doesn't exist." })
      .waitFor();
    const main = page.getByRole('main');
    expect(await main.getByRole('link', { name: 'Go to My Shelf' }).count()).toBe(0);
    await main.getByRole('link', { name: 'Go to the home page' }).waitFor();
    await expectAccessible(page);
    const search = main.getByRole('searchbox', {
      name: 'Type ISBN, Title, or Keyword and press enter to search.',
    });
    await search.fill('biology');
    await search.press('Enter');
    await page.waitForURL(/\/search\?terms=biology/);
    await page.getByRole('heading', { level: 1, name: 'Search results for biology.' }).waitFor();
    await page.goto('/no-such-page-here');
    await page.getByRole('main').getByRole('link', { name: 'Go to the home page' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await context.close();
  });
});
