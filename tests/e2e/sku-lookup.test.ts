import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  expectAccessible,
  expectToolRefused,
  launchBrowser,
  logIn,
  newContext,
  openUserMenu,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';

// Spec 1 §2 user menu, "Bookstore Manager: SKU Lookup (managers or bookstore managers)": a
// bookstore manager reads a book's ISBN off its product page, opens SKU Lookup from the menu,
// types the number with hyphens and finds the book, its numbers and its offerings with price
// and stock, and follows the link back to the same page; bad input is said beside the field;
// the French page; a student has no such menu item and is refused the page.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('SKU Lookup', () => {
  it('a bookstore manager finds a book by the ISBN on its page, in English and French', async () => {
    const manager = await makeUser({ like: 'bookstore', label: 'sku-bookstore' });
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, manager);
      // A book of the catalog, and its ISBN as its page shows it.
      await page.goto('/search?terms=chemistry');
      const productLink = page.locator('main a[href^="/book/"]').first();
      await productLink.waitFor();
      const productPath = new URL((await productLink.getAttribute('href'))!, 'http://x').pathname;
      await page.goto(productPath);
      const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
      const isbnRow = page.getByRole('row').filter({ hasText: 'ISBNs' });
      const isbn = (await isbnRow.getByRole('cell').last().innerText()).split(',')[0]!.trim();
      expect(isbn).toMatch(/^\d{9,16}X?$/);

      await openUserMenu(page);
      await page.getByRole('menu').getByRole('menuitem', { name: 'SKU Lookup' }).click();
      await page.getByRole('heading', { level: 1, name: 'SKU Lookup' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/manage/sku-lookup');
      await waitForHydration(page);
      await expectAccessible(page);

      const field = page.getByLabel('ISBN or product number');
      const lookUp = page.getByRole('button', { name: 'Look up' });
      await lookUp.click();
      await page.getByText('Type an ISBN or product number.', { exact: true }).waitFor();
      await field.fill('organic chemistry');
      await lookUp.click();
      await page
        .getByText(
          'This is not an ISBN or product number: type 9 to 16 digits (an ISBN-10 may end in X).',
          { exact: true },
        )
        .waitFor();
      await expectAccessible(page);

      // Typed with hyphens, as printed on a box.
      const hyphenated = isbn.replace(/^(\d{3})(\d)(\d{4})(\d{4})(\d)$/, '$1-$2-$3-$4-$5');
      await field.fill(hyphenated);
      await lookUp.click();
      const found = page.getByRole('region', { name: title });
      await found.getByRole('link', { name: title }).waitFor();
      expect(new URL(page.url()).searchParams.get('sku')).toBe(hyphenated);
      await found.getByText('On sale', { exact: true }).waitFor();
      const offerings = found.getByRole('table', { name: `Offerings of ${title}` });
      expect(await offerings.getByRole('row').count()).toBeGreaterThan(1);
      expect(await offerings.getByRole('columnheader').allInnerTexts()).toEqual([
        'Offering',
        'Price',
        'Stock',
        'Offered',
      ]);
      await expectAccessible(page);
      await found.getByRole('link', { name: title }).click();
      await page.waitForURL((url) => url.pathname === productPath);

      // A number no product carries.
      await page.goto('/manage/sku-lookup?sku=9790000000001');
      await page.getByText('No product in the catalog has the number 9790000000001.').waitFor();

      await chooseLanguage(page, 'Français (Canada)', `/manage/sku-lookup?sku=${isbn}`);
      await page.getByRole('heading', { level: 1, name: 'Recherche de SKU' }).waitFor();
      await page
        .getByRole('region', { name: title })
        .getByRole('table', { name: `Offres de ${title}` })
        .waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('a student has no SKU Lookup and is refused the page', async () => {
    const student = await makeUser({ like: 'student', label: 'sku-student' });
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, student);
      await expectToolRefused(page, 'SKU Lookup', '/manage/sku-lookup?sku=9780306406157');
    } finally {
      await context.close();
    }
  });
});
