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

// Issue 16, reading settings: type size, font (with a dyslexia-friendly one that ships with
// us), line spacing, margins, themes; remembered per user, so they follow the reader from a
// laptop to a phone in another browser. The demo student's book 1 is an EPUB (reader.test.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** What the reading area shows now: its theme, font, spacing and margins, and the font used. */
async function look(page: Page) {
  const area = page.locator('.reader__page');
  const text = page.locator('.reader__page .reader-text');
  await text.waitFor();
  // The book's own words: its first paragraph, whatever the publisher's stylesheet says.
  const words = text.locator('.reader-book p').first();
  return {
    theme: await area.getAttribute('data-theme'),
    font: await text.getAttribute('data-font'),
    spacing: await text.getAttribute('data-spacing'),
    margins: await text.getAttribute('data-margins'),
    family: await words.evaluate((el) => getComputedStyle(el).fontFamily),
    lineHeight: await words.evaluate(
      (el) =>
        Number.parseFloat(getComputedStyle(el).lineHeight) /
        Number.parseFloat(getComputedStyle(el).fontSize),
    ),
  };
}

/** The settings the server has for the logged-in reader. */
function serverSettings(page: Page) {
  return page.evaluate(async () => {
    const response = await fetch('/api/reading/settings', {
      headers: { Accept: 'application/vnd.api+json' },
    });
    return (await response.json()).data.attributes;
  });
}

describe('reading settings, as a student reading on a laptop and then a phone', () => {
  it('chosen on a laptop, they are applied at once and found again on a phone in another browser, in French', async () => {
    const user = await makeUser({ like: 'student', label: 'reader-settings' });
    const laptop = await newContext(browser);
    const page = await laptop.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, user);
    await page.goto('/book/read/1');
    await waitForHydration(page);
    expect(await look(page)).toMatchObject({
      theme: 'light',
      font: 'serif',
      spacing: 'normal',
      margins: 'normal',
    });

    // Each font's name is shown in its font: the dyslexia-friendly one comes with the panel.
    const fontFile = page.waitForResponse((r) =>
      /\/assets\/opendyslexic-latin-400-normal-.*\.woff2$/.test(r.url()),
    );
    await page.getByText('Display settings', { exact: true }).click();
    await page.getByRole('radio', { name: 'OpenDyslexic (for dyslexia)' }).check();
    await page.getByRole('radio', { name: 'Relaxed' }).check();
    await page.getByRole('radio', { name: 'Wide' }).check();
    await page.getByRole('radio', { name: 'Sepia' }).check();
    // The dyslexia-friendly font comes from our own origin, and the text is drawn in it.
    expect((await fontFile).status()).toBe(200);
    expect(
      await page.evaluate(() =>
        document.fonts.ready.then(() => document.fonts.check('16px OpenDyslexic')),
      ),
    ).toBe(true);
    const shown = await look(page);
    expect(shown).toMatchObject({
      theme: 'sepia',
      font: 'dyslexic',
      spacing: 'relaxed',
      margins: 'wide',
    });
    expect(shown.family).toMatch(/^"?OpenDyslexic/);
    expect(shown.lineHeight).toBeCloseTo(1.9, 1);
    expect(
      await page.locator('.reader__page').evaluate((el) => getComputedStyle(el).backgroundColor),
    ).toBe('rgb(244, 236, 216)');
    await expectAccessible(page);
    // Saved on the server (once the choices settle), not only in this browser.
    await expect
      .poll(() => serverSettings(page), { timeout: 5000 })
      .toMatchObject({ theme: 'sepia', font: 'dyslexic', lineSpacing: 'relaxed', margins: 'wide' });
    await laptop.close();

    // Another browser (nothing stored in it), at a phone's width, in French.
    const phone = await newContext(browser);
    const small = await phone.newPage();
    await small.setViewportSize({ width: 390, height: 844 });
    await logIn(small, user);
    await chooseLanguage(small, 'Français (Canada)', '/book/read/1');
    expect(await look(small)).toMatchObject({
      theme: 'sepia',
      font: 'dyslexic',
      spacing: 'relaxed',
      margins: 'wide',
    });
    await small.getByRole('button', { name: 'Outils de lecture' }).click();
    await small.getByText('Affichage', { exact: true }).click();
    expect(await small.getByRole('radio', { name: 'Sépia' }).isChecked()).toBe(true);
    expect(
      await small.getByRole('radio', { name: 'OpenDyslexic (pour la dyslexie)' }).isChecked(),
    ).toBe(true);
    // The dark theme, by keyboard, with its contrast checked by axe.
    await small.getByRole('radio', { name: 'Sombre' }).focus();
    await small.keyboard.press('Space');
    expect((await look(small)).theme).toBe('dark');
    await expectAccessible(small);
    await expect
      .poll(() => serverSettings(small), { timeout: 5000 })
      .toMatchObject({ theme: 'dark' });
    await phone.close();
  });
});
