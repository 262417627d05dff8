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

// Issue 38, a PDF is readable on a phone: the first screen of a PDF shows its text at 12 CSS
// px at least (the page opens zoomed past the screen's width and pans sideways), and the
// reader's buttons all stay on the screen. The demo student's book 2 is a PDF of Letter pages
// set in 11-point type: fitted to a phone's width, it is drawn at 5 or 6 px.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Opens book 2 and waits until page 1 shows its text layer. */
async function openPdf(page: Page) {
  await page.goto('/book/read/2');
  await waitForHydration(page);
  await page
    .getByRole('region', { name: 'Page 1', exact: true })
    .getByText(/\w{4,}/)
    .first()
    .waitFor();
}

/**
 * The words of page 1 a person sees on the first screen, without scrolling or panning: how
 * many text runs, and the height of the smallest, in CSS px.
 */
const firstScreenText = (page: Page) =>
  page.evaluate(() => {
    const area = document.querySelector('.pdf-pages')!.getBoundingClientRect();
    const seen = [...document.querySelectorAll('.pdf-page[data-page="0"] .textLayer span')]
      .filter((span) => /\w{4,}/.test(span.textContent ?? ''))
      .map((span) => span.getBoundingClientRect())
      .filter(
        (r) =>
          r.top >= 0 &&
          r.bottom <= window.innerHeight &&
          r.left < Math.min(window.innerWidth, area.right) &&
          r.right > Math.max(0, area.left),
      );
    return { runs: seen.length, smallest: Math.min(...seen.map((r) => r.height)) };
  });

/** The buttons given that are not wholly on the screen (by their accessible names). */
const offScreen = (page: Page, names: string[]) =>
  page.evaluate((wanted) => {
    const buttons = [...document.querySelectorAll('button')];
    return wanted.filter((name) => {
      const button = buttons.find((b) => (b.getAttribute('aria-label') ?? b.textContent) === name);
      if (!button) return true;
      const r = button.getBoundingClientRect();
      return r.width === 0 || r.left < 0 || r.right > document.documentElement.clientWidth;
    });
  }, names);

const pans = (page: Page) =>
  page.evaluate(() => {
    const area = document.querySelector<HTMLElement>('.pdf-pages')!;
    return area.scrollWidth > area.clientWidth;
  });
const pageScrollsSideways = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);

describe('a PDF on a phone', () => {
  it('at 390 × 844: the first screen shows the text at 12 CSS px or more, the page pans, the zoom works by keyboard', async () => {
    const user = await makeUser({ like: 'student', label: 'pdf-phone-390' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    await logIn(page, user);
    await openPdf(page);

    const text = await firstScreenText(page);
    expect(text.runs).toBeGreaterThan(0);
    expect(text.smallest).toBeGreaterThanOrEqual(12);
    expect(await pans(page)).toBe(true);
    expect(await pageScrollsSideways(page)).toBe(false);
    const tools = ['Reading tools', 'Previous page', 'Next page', 'Zoom out', 'Zoom in'];
    expect(await offScreen(page, [...tools, 'Fit width'])).toEqual([]);
    await expectAccessible(page);

    // By keyboard: Fit width shows the whole width of the page (smaller text, no panning);
    // Zoom in enlarges it again, and the level is said.
    await page.getByRole('button', { name: 'Fit width' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Zoom' }).getByText('100%').waitFor();
    await expect.poll(() => pans(page)).toBe(false);
    await page.getByRole('button', { name: 'Zoom in' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('group', { name: 'Zoom' }).getByText('125%').waitFor();
    await expect.poll(() => pans(page)).toBe(true);
    await context.close();
  });

  it('at 320 × 568, in French: the text at 12 CSS px or more on the first screen, every button on it', async () => {
    const user = await makeUser({ like: 'student', label: 'pdf-phone-320' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 320, height: 568 });
    await logIn(page, user);
    await openPdf(page);

    const text = await firstScreenText(page);
    expect(text.runs).toBeGreaterThan(0);
    expect(text.smallest).toBeGreaterThanOrEqual(12);
    expect(await pans(page)).toBe(true);
    expect(await pageScrollsSideways(page)).toBe(false);
    expect(
      await offScreen(page, [
        'Reading tools',
        'Previous page',
        'Next page',
        'Zoom out',
        'Zoom in',
        'Fit width',
      ]),
    ).toEqual([]);

    // The zoom's buttons have French names for a French reader.
    await chooseLanguage(page, 'Français (Canada)', '/book/read/2');
    await openPdf(page);
    expect((await firstScreenText(page)).smallest).toBeGreaterThanOrEqual(12);
    expect(
      await offScreen(page, [
        'Outils de lecture',
        'Page précédente',
        'Page suivante',
        'Zoom arrière',
        'Zoom avant',
        'Pleine largeur',
      ]),
    ).toEqual([]);
    await page.getByRole('button', { name: 'Zoom arrière' }).click();
    await page
      .getByRole('group', { name: 'Zoom' })
      .getByText(/^\d+\s%$/)
      .waitFor();
    await expectAccessible(page);
    await context.close();
  });
});
