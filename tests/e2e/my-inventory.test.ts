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
import { makeCountedCopy, makeUser } from './fixtures.ts';

// Spec 1 §2 user menu, "My Inventory (posting enabled and manager or impersonating)": a manager
// opens it from the menu, finds a print copy by its ISBN as printed, receives a delivery (a
// wrong figure first, said beside the field), saves a count that a delivery in another tab
// overtook (told the stock now), counts again, and sees each new figure; the French page; a
// student has no such item and is refused the page.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('My Inventory', () => {
  it('a manager receives a delivery and saves a count, told when a count was overtaken', async () => {
    const manager = await makeUser({ like: 'manager', label: 'inventory-manager' });
    const copy = await makeCountedCopy(2);
    const printed = copy.isbn.replace(/^(\d{3})(\d)(\d{4})(\d{4})(\d)$/, '$1-$2-$3-$4-$5');
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, manager);
      await openUserMenu(page);
      await page.getByRole('menu').getByRole('menuitem', { name: 'My Inventory' }).click();
      await page.getByRole('heading', { level: 1, name: 'My Inventory' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/manage/my-inventory');
      await waitForHydration(page);

      await page.getByLabel('Title or ISBN').fill(printed);
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await page
        .getByRole('heading', { level: 2, name: `1 counted offering matches “${printed}”` })
        .waitFor();
      const row = page.getByRole('row').filter({ hasText: copy.title });
      await row
        .getByRole('cell')
        .filter({ hasText: /^2\s*Low$/ })
        .waitFor();
      await expectAccessible(page);

      const received = row.getByLabel(new RegExp(`^Units received of ${copy.title}, `));
      await received.fill('ten');
      await row.getByRole('button', { name: 'Receive' }).click();
      await page
        .getByText('Type a whole number of units from 1 to 10,000.', { exact: true })
        .waitFor();
      await row.getByLabel(new RegExp(`^Units received of ${copy.title}, `)).fill('10');
      await row.getByRole('button', { name: 'Receive' }).click();
      const notice = page.locator('output.alert--success');
      await notice.waitFor();
      expect(await notice.innerText()).toMatch(
        new RegExp(`^Delivery received: ${copy.title}, .+, now 12 on hand\\.$`),
      );
      expect(new URL(page.url()).searchParams.get('q')).toBe(printed);
      // The figure typed is gone (a second Enter sends nothing twice), and the keyboard starts
      // again from the notice, which says what was saved.
      expect(
        await row.getByLabel(new RegExp(`^Units received of ${copy.title}, `)).inputValue(),
      ).toBe('');
      expect(await page.evaluate(() => document.activeElement?.tagName)).toBe('OUTPUT');
      await row.getByRole('cell', { name: '12', exact: true }).waitFor();

      // The count began at 12; a delivery of 1 arrives in another tab before it is saved.
      const other = await context.newPage();
      await other.goto(`/manage/my-inventory?${new URLSearchParams({ q: copy.isbn })}`);
      await waitForHydration(other);
      const otherRow = other.getByRole('row').filter({ hasText: copy.title });
      await otherRow.getByLabel(new RegExp(`^Units received of ${copy.title}, `)).fill('1');
      await otherRow.getByRole('button', { name: 'Receive' }).click();
      await other.locator('output.alert--success').waitFor();
      await other.close();

      await row.getByLabel(new RegExp(`^Units counted of ${copy.title}, `)).fill('12');
      await row.getByRole('button', { name: 'Save count' }).click();
      await page
        .getByText(
          'The stock changed to 13 while you counted (a sale or a delivery). Count again and save.',
          { exact: true },
        )
        .waitFor();
      await row.getByRole('cell', { name: '13', exact: true }).waitFor();
      await expectAccessible(page);
      await row.getByLabel(new RegExp(`^Units counted of ${copy.title}, `)).fill('11');
      await row.getByRole('button', { name: 'Save count' }).click();
      await page
        .locator('output.alert--success')
        .filter({ hasText: new RegExp(`^Count saved: ${copy.title}, .+, now 11 on hand\\.$`) })
        .waitFor();

      await chooseLanguage(
        page,
        'Français (Canada)',
        `/manage/my-inventory?${new URLSearchParams({ q: copy.isbn })}`,
      );
      await page.getByRole('heading', { level: 1, name: 'Mon inventaire' }).waitFor();
      await page.getByRole('heading', { level: 2, name: '1 offre comptée' }).waitFor();
      await page
        .getByRole('row')
        .filter({ hasText: copy.title })
        .getByRole('button', { name: 'Enregistrer le comptage' })
        .waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('a student has no My Inventory and is refused the page', async () => {
    const student = await makeUser({ like: 'student', label: 'inventory-student' });
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, student);
      await expectToolRefused(page, 'My Inventory', '/manage/my-inventory');
    } finally {
      await context.close();
    }
  });
});
