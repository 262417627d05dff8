import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 13: the card expiry's 'MM/YY' and the section analytics title were English on French
// pages. As a teaching assistant of BIO 101 section 001 made like ta@demo.test (fixtures.ts,
// db/seed/courses.ts), who chooses French as a person would: the account's stored choice wins
// over the browser's language.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function chooseLanguage(page: Page, label: string): Promise<void> {
  await page.goto('/account/language?next=/shelf');
  await page.getByLabel(label).check();
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/shelf')),
    page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
  ]);
  await waitForHydration(page);
}

describe('French forms and titles', () => {
  it('the card expiry reads MM/AA and the analytics title is French', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'ta', label: 'french-forms' }));
    await chooseLanguage(page, 'Français (Canada)');
    // The section analytics: its <title> and heading name the section in French.
    await page.locator('.course-card__link', { hasText: 'BIO 101' }).first().click();
    await page.getByRole('link', { name: 'Voir les analyses de la section' }).click();
    await page
      .getByRole('heading', {
        level: 1,
        name: 'Statistiques de la section : BIO 101 : Section 001',
      })
      .waitFor();
    expect(await page.title()).toMatch(/^Statistiques de la section : BIO 101 : Section 001 \| /);
    await expectAccessible(page);

    // The test card form: 'Expiration (MM/AA)' with the placeholder 'MM/AA'.
    await page.goto('/book/13');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Ajouter au panier' }).click();
    await page.getByRole('link', { name: 'Voir le panier' }).waitFor();
    await page.goto('/checkout/');
    await waitForHydration(page);
    const expiry = page.getByLabel('Expiration (MM/AA)');
    expect(await expiry.getAttribute('placeholder')).toBe('MM/AA');
    await expectAccessible(page);
    await context.close();
  });
});
