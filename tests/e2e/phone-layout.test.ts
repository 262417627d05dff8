import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, chooseLanguage, expectAccessible, launchBrowser, logIn } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 16, from the French walk, on a phone: the library scrolled sideways (its buttons stood
// beside the title, past the screen's edge), and the navbar search cut its placeholder, the
// spec's 'Search by ISBN, Title, or Keywords', to "Keywor".

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Whether the page is wider than the screen (it then scrolls sideways). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

/** The navbar search's placeholder, and whether it fits in its field as drawn. */
const placeholder = (page: Page) =>
  page
    .getByRole('banner')
    .getByRole('searchbox')
    .evaluate((input: HTMLInputElement) => {
      const style = getComputedStyle(input, '::placeholder');
      const context = document.createElement('canvas').getContext('2d')!;
      context.font = `${style.fontSize} ${getComputedStyle(input).fontFamily}`;
      const own = getComputedStyle(input);
      const room = input.clientWidth - parseFloat(own.paddingLeft) - parseFloat(own.paddingRight);
      return {
        text: input.placeholder,
        fits: context.measureText(input.placeholder).width <= room,
        size: parseFloat(style.fontSize),
      };
    });

describe('on a phone', () => {
  for (const width of [360, 375, 414]) {
    it(`${width} px wide: the library stays on the screen and the search says its whole placeholder, in English and French`, async () => {
      const user = await makeUser({ like: 'student', label: 'phone' });
      const context = await browser.newContext({
        baseURL: baseUrl(),
        locale: 'en-US',
        viewport: { width, height: 800 },
        isMobile: true,
        hasTouch: true,
      });
      const page = await context.newPage();
      await logIn(page, user);
      await page.goto('/library/');
      await page.getByRole('heading', { name: 'Library', level: 1 }).waitFor();
      expect(await page.locator('.library-list__item').count()).toBeGreaterThan(0);
      expect(await scrollsSideways(page)).toBe(false);
      // Each material's buttons on the screen, under its title.
      const buttons = await page
        .locator('.library-list__item')
        .first()
        .getByRole('link')
        .or(page.locator('.library-list__item').first().getByRole('button'))
        .evaluateAll((found) => found.map((el) => el.getBoundingClientRect().right));
      for (const right of buttons) expect(right).toBeLessThanOrEqual(width);
      expect(await placeholder(page)).toMatchObject({
        text: 'Search by ISBN, Title, or Keywords',
        fits: true,
      });
      expect((await placeholder(page)).size).toBeGreaterThanOrEqual(12);
      await expectAccessible(page);

      await chooseLanguage(page, 'Français (Canada)', '/library/');
      await page.getByRole('heading', { name: 'Bibliothèque', level: 1 }).waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      expect(await placeholder(page)).toMatchObject({
        text: 'Rechercher par ISBN, titre ou mots-clés',
        fits: true,
      });
      await context.close();
    });
  }
});
