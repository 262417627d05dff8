import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskedEmail } from '#domain/access/claim-code-check.ts';
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
import { makeRedeemCodeFor, makeUser } from './fixtures.ts';

// Spec 1 §2 user menu, "Claim Code Checker (users with access)": a manager with the checker
// opens it from the menu, checks a student's code (unused, with the title it gives and a link to
// it), the student redeems it, and the checker then says when and by whose account (masked);
// the redeem form's words for an unknown code and an empty field; the French page; and a
// student without the checker is refused the page.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the Claim Code Checker', () => {
  it('a manager checks a code before and after a student redeems it, in English and French', async () => {
    const manager = await makeUser({ like: 'manager', label: 'claim-check-manager' });
    const student = await makeUser({ like: 'student', label: 'claim-check-student' });
    const { code, title } = await makeRedeemCodeFor();
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, manager);
      await openUserMenu(page);
      await page.getByRole('menu').getByRole('menuitem', { name: 'Claim Code Checker' }).click();
      await page.getByRole('heading', { level: 1, name: 'Claim Code Checker' }).waitFor();
      expect(new URL(page.url()).pathname).toBe('/manage/claim-code-checker');
      await waitForHydration(page);
      await expectAccessible(page);

      const field = page.getByLabel('Code to check');
      const check = page.getByRole('button', { name: 'Check code' });
      await check.click();
      await page.getByText('This field may not be null.', { exact: true }).waitFor();
      await field.fill('NO-SUCH-CODE-HERE');
      await check.click();
      await page
        .getByText('This code does not exist. Check what you typed and try again.', {
          exact: true,
        })
        .waitFor();

      // Typed in lower case with spaces, as a student reads it out: the code, unused.
      await field.fill(` ${code.toLowerCase().replace(/-/g, ' ')} `);
      await check.click();
      const result = page.getByRole('region', { name: /^Code / });
      await result
        .getByText('Not redeemed yet: this code can be redeemed.', { exact: true })
        .waitFor();
      await result.getByText('Can be redeemed until', { exact: true }).waitFor();
      await expectAccessible(page);
      const link = result.getByRole('link', { name: title });
      const href = await link.getAttribute('href');
      expect(href).toMatch(/^\/book\/\d+/);

      // The student redeems it; the checker now says when, and whose account.
      const studentContext = await newContext(browser);
      const studentPage = await studentContext.newPage();
      await logIn(studentPage, student);
      await studentPage.goto('/redeem');
      await waitForHydration(studentPage);
      await studentPage.getByLabel('Redeem your purchase code').fill(code);
      await studentPage.getByRole('button', { name: 'Redeem' }).click();
      await studentPage.waitForURL((url) => !url.pathname.startsWith('/redeem'));
      await studentContext.close();

      await field.fill(code);
      await check.click();
      await result
        .getByText(
          new RegExp(
            `^Redeemed on [A-Z][a-z]+ \\d{1,2}, \\d{4} by ${maskedEmail(student.email).replace(/[.+]/g, '\\$&')}\\.$`,
          ),
        )
        .waitFor();
      expect(await page.getByText(student.email).count()).toBe(0);
      // A redeemed code has no last day to be redeemed any more.
      expect(await result.getByText('Can be redeemed until').count()).toBe(0);

      // The product link opens the title the code gives.
      await link.click();
      await page.getByRole('heading', { level: 1, name: title }).waitFor();

      // In French.
      await chooseLanguage(page, 'Français (Canada)', '/manage/claim-code-checker');
      await page.getByRole('heading', { level: 1, name: 'Vérificateur de codes' }).waitFor();
      await page.getByLabel('Code à vérifier').fill(code);
      await page.getByRole('button', { name: 'Vérifier le code' }).click();
      await page.getByText(/^Utilisé le \d{1,2} [a-zéû]+\.? \d{4} par /).waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('a student, whose menu has no checker, is refused the page; a visitor is sent to log in', async () => {
    const student = await makeUser({ like: 'student', label: 'claim-check-refused' });
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      const anonymous = await page.goto('/manage/claim-code-checker');
      expect(new URL(page.url()).pathname).toMatch(/^\/accounts\/login/);
      expect(anonymous?.ok()).toBe(true);
      await logIn(page, student);
      await expectToolRefused(page, 'Claim Code Checker', '/manage/claim-code-checker');
    } finally {
      await context.close();
    }
  });
});
