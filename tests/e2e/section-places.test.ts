import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { academicTermOf } from '#domain/courses/academic-term.ts';
import {
  demoTotpCode,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { type MadeUser, makeUser } from './fixtures.ts';
import { linkIn, waitForMail } from './mail.ts';

// Issue 20, the bookstore's section places: the demo bookstore manager finds ENG 101 in Find
// your course materials, opens its places, adds a student with an account and an address
// without one, sees what happened and the table, removes the kept place by keyboard; then the
// same page in French, and the French mail the kept address receives.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The demo's current sections started 35 days before the server seeded them (db/seed/courses.ts).
const current = academicTermOf(new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10));
const SEASONS = { fall: 'Fall', 'winter-spring': 'Winter/Spring', summer: 'Summer' };

/** Logs in on the French login page, with the demo key's second step. */
async function logInInFrench(page: Page, user: MadeUser): Promise<void> {
  await page.goto('/accounts/login/');
  await page.getByLabel('Courriel').fill(user.email);
  await page.getByLabel('Mot de passe').fill(user.password);
  await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
  await page.waitForURL(/\/accounts\/login\/verify/);
  await page.getByLabel('Code de vérification').fill(await demoTotpCode(user.email));
  await page.getByRole('button', { name: 'Vérifier' }).click();
  await page.waitForURL((url) => !url.pathname.startsWith('/accounts/login'));
  await waitForHydration(page);
}

describe('issue 20: the bookstore puts students in a section by e-mail', () => {
  it('issue 20: the bookstore manager adds two addresses, reads the result and the table, removes a kept place by keyboard; then in French', async () => {
    const bookstore = await makeUser({ like: 'bookstore', label: 'places-bookstore' });
    const student = await makeUser({ label: 'places-student' });
    const stamp = Date.now().toString(36);
    const newcomer = `newcomer-${stamp}@campus.example`;
    let placesUrl = '';

    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, bookstore);
      await page.goto('/courses/find');
      await page.getByRole('link', { name: 'Riverbend University Bookstore' }).click();
      await page
        .getByRole('link', { name: `${SEASONS[current.season]} ${current.year}`, exact: true })
        .click();
      await page.getByRole('link', { name: 'English (ENG)' }).click();
      await page.getByRole('link', { name: 'ENG 101 College Composition' }).click();
      await page.getByRole('link', { name: /^Section 001 / }).click();
      await page.getByRole('heading', { level: 1, name: 'ENG 101: Section 001' }).waitFor();
      await page.getByRole('link', { name: 'Manage section places' }).click();
      await page
        .getByRole('heading', { level: 1, name: 'Section places: ENG 101: Section 001' })
        .waitFor();
      expect(await page.title()).toBe('Section places: ENG 101: Section 001 | Shelfmark');
      placesUrl = new URL(page.url()).pathname;
      expect(placesUrl).toMatch(/^\/manage\/sections\/\d+\/places$/);
      // The place the demo keeps for an address without an account.
      const table = page.getByRole('table', { name: 'Places kept in this section' });
      await table.getByRole('row', { name: /new\.writer@demo\.test/ }).waitFor();
      await expectAccessible(page);

      // One bad address: nothing is added, and the text comes back to be corrected.
      const addresses = page.getByLabel('E-mail addresses');
      await addresses.fill(`${student.email}\n${newcomer}\nnot-an-address`);
      await page.getByRole('button', { name: 'Add to the section' }).click();
      const refusal = page.getByRole('alert');
      await refusal
        .getByText('Nothing was added. Correct this address and try again:', { exact: true })
        .waitFor();
      await refusal
        .getByText('“not-an-address” is not a valid e-mail address.', { exact: true })
        .waitFor();
      expect(await addresses.inputValue()).toBe(`${student.email}\n${newcomer}\nnot-an-address`);
      expect(await table.getByRole('row', { name: new RegExp(newcomer) }).count()).toBe(0);
      await expectAccessible(page);

      // The two good ones: the student with an account joins now, the newcomer's place is kept.
      await addresses.fill(`${student.email.toUpperCase()}, ${newcomer}`);
      await page.getByRole('button', { name: 'Add to the section' }).click();
      const result = page.getByRole('status');
      await result.getByText('1 person added to the section now.', { exact: true }).waitFor();
      await result
        .getByText('1 place kept until the student confirms the address.', { exact: true })
        .waitFor();
      await result.getByText('0 addresses were already there.', { exact: true }).waitFor();
      const row = table.getByRole('row', { name: new RegExp(newcomer) });
      await row.waitFor();
      expect(await row.getByRole('cell').allInnerTexts()).toEqual([
        'Student',
        new Intl.DateTimeFormat('en', {
          dateStyle: 'medium',
          timeZone: 'America/New_York',
        }).format(new Date()),
        'Kept',
        'Remove',
      ]);
      await expectAccessible(page);

      // Remove it by keyboard: the button named for the address, then Enter.
      const remove = page.getByRole('button', { name: `Remove the place kept for ${newcomer}` });
      await remove.focus();
      await page.keyboard.press('Enter');
      await page
        .getByRole('status')
        .getByText(`The place kept for ${newcomer} is removed.`, { exact: true })
        .waitFor();
      await row.waitFor({ state: 'detached' });
      // The focus is on what happened, not lost with the removed row.
      expect(
        await page.evaluate(() => document.activeElement?.textContent?.includes('is removed')),
      ).toBe(true);
      await expectAccessible(page);
    } finally {
      await context.close();
    }

    const french = await newContext(browser, { locale: 'fr-CA' });
    try {
      const page = await french.newPage();
      await logInInFrench(page, bookstore);
      await page.goto(placesUrl);
      await page
        .getByRole('heading', { level: 1, name: /^Places de la section : ENG 101 : Section 001$/ })
        .waitFor();
      const addresses = page.getByLabel('Adresses courriel');
      await addresses.fill(`deux@@campus.example ${newcomer}`);
      await page.getByRole('button', { name: 'Ajouter à la section' }).click();
      await page
        .getByRole('alert')
        .getByText('« deux@@campus.example » n’est pas une adresse courriel valide.', {
          exact: true,
        })
        .waitFor();
      await addresses.fill(newcomer);
      await page.getByRole('button', { name: 'Ajouter à la section' }).click();
      const result = page.getByRole('status');
      await result
        .getByText('1 place réservée jusqu’à ce que l’étudiant confirme son adresse.', {
          exact: true,
        })
        .waitFor();
      await result
        .getByText('0 personne ajoutée à la section dès maintenant.', { exact: true })
        .waitFor();
      const table = page.getByRole('table', { name: 'Places réservées dans cette section' });
      await table
        .getByRole('row', { name: new RegExp(newcomer) })
        .getByRole('cell', { name: 'Réservée', exact: true })
        .waitFor();
      await page
        .getByRole('button', { name: `Retirer la place réservée pour ${newcomer}` })
        .waitFor();
      await expectAccessible(page);

      // The kept address is told, in the language of the page it was kept from.
      const mail = await waitForMail(
        newcomer,
        'Une place vous est réservée dans ENG 101 : Section 001',
      );
      expect(mail.text).toContain(
        'Une place vous est réservée dans ENG 101 : Section 001 (College Composition) à Riverbend University Bookstore; créez votre compte avec cette adresse pour la trouver sur votre étagère.',
      );
      expect(linkIn(mail, '/accounts/signup')).toBe('/accounts/signup/');
    } finally {
      await french.close();
    }
  });

  it('issue 20: a student who opens a section’s places sees the forbidden page', async () => {
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, await makeUser({ like: 'student', label: 'places-forbidden' }));
      const answer = await page.goto('/manage/sections/1/places');
      expect(answer?.status()).toBe(403);
      await page
        .getByRole('heading', { level: 1, name: "Sorry, you can't access this page." })
        .waitFor();
      expect((await page.goto('/manage/sections/abc/places'))?.status()).toBe(404);
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});
