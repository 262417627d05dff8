import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, openUserMenu } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 39, the help desk and Switch Account: "Done when: a manager helps a student by
// switching to their account and back, and the audit shows it." A manager finds a student by
// e-mail, opens their page, switches to their account, sees the banner on My Shelf, is refused
// the password change, switches back and reads the audit; then the French pages; a student is
// refused the tool, another campus's staff do not find the student.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('issue 39: the help desk and Switch Account', () => {
  it('issue 39: a manager finds a student, switches to their account and back, and the audit shows it', async () => {
    const manager = await makeUser({ like: 'manager', label: 'helpdesk-manager' });
    const student = await makeUser({ like: 'student', label: 'helpdesk-student' });
    const studentName = `${student.firstName} ${student.lastName}`;
    const managerName = `${manager.firstName} ${manager.lastName}`;
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, manager);
      await page.goto('/manage/users');
      await page.getByRole('heading', { level: 1, name: 'Users' }).waitFor();
      await page.getByLabel('Find a person').fill(student.email);
      await page.getByLabel('Find a person').press('Enter');
      await page.getByRole('heading', { level: 2, name: '1 person found' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: studentName }).click();
      await page.getByRole('heading', { level: 1, name: studentName }).waitFor();
      expect(page.url()).toMatch(new RegExp(`/manage/users/${student.id}$`));
      // The student's sections, with their opt status, each titled as the shelf titles it:
      // department, course number, section number and the section's name.
      const sections = page.getByRole('table', { name: 'Sections' });
      expect(await sections.getByRole('row').count()).toBeGreaterThan(1);
      const titles = await sections.getByRole('rowheader').allInnerTexts();
      expect(titles.length).toBeGreaterThan(0);
      for (const title of titles) expect(title.trim()).toMatch(/^[A-Z]+ \d+: Section \w+ · \S/);
      // Their orders, by the number and state the student's own order page shows.
      const orderRow = page.getByRole('table', { name: 'Orders' }).getByRole('row').nth(1);
      const [orderText, , orderState] = (await orderRow.getByRole('rowheader').allInnerTexts())
        .concat(await orderRow.getByRole('cell').allInnerTexts())
        .map((cell) => cell.trim());
      const orderNumber = /^Order ([0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4})$/.exec(
        orderText ?? '',
      )?.[1];
      expect(orderNumber).toBeDefined();
      await expectAccessible(page);

      await page.getByRole('button', { name: 'Switch to this account' }).click();
      await page.waitForURL(/\/shelf$/);
      const banner = page.getByRole('note').filter({ hasText: 'You are acting as' });
      expect((await banner.textContent())?.replace(/\s+/g, ' ').trim()).toBe(
        `You are acting as ${studentName}. Switch back`,
      );
      await expectAccessible(page);

      // The student's own orders page: the same order, number and state.
      await page.goto('/account/orders');
      const own = page
        .getByRole('listitem')
        .filter({ has: page.getByRole('heading', { name: `Order number: ${orderNumber}` }) });
      await own.getByText(`Status: ${orderState}`, { exact: true }).waitFor();

      // The person's password is out of reach.
      const refused = await page.goto('/account/profile');
      expect(refused?.status()).toBe(403);
      await page
        .getByRole('heading', {
          level: 1,
          name: 'While acting as someone, you cannot see or change their password.',
        })
        .waitFor();

      // The banner's way back, and the menu's Switch Account item, lead to the same page.
      expect(await page.getByRole('link', { name: 'Switch back' }).getAttribute('href')).toBe(
        '/manage/switch-account',
      );
      await openUserMenu(page);
      await page.getByRole('menu').getByRole('menuitem', { name: 'Switch Account' }).click();
      await page.getByRole('heading', { level: 1, name: 'Switch Account' }).waitFor();
      await page.getByText(`You are acting as ${studentName}. Switching back ends it`).waitFor();
      await expectAccessible(page);
      await page.getByRole('button', { name: 'Switch back to my account' }).click();
      await page.waitForURL(new RegExp(`/manage/users/${student.id}$`));
      // The person's page, as the manager again: the banner goes with the switched session.
      await page.getByRole('link', { name: 'Switch back' }).waitFor({ state: 'detached' });
      expect(await page.getByRole('note').filter({ hasText: 'You are acting as' }).count()).toBe(0);
      const audit = page.getByRole('table', { name: 'Change history' });
      const lines = await audit.getByRole('row').allInnerTexts();
      const who = `${managerName} <${manager.email}> (acting as ${studentName})`;
      // Newest first: the switch back, the one request that changed something (the switch
      // back's own post; the password page was only looked at), the switch.
      // In words: what was done, with whom, and until when (in the reader's zone, named).
      expect(
        lines.slice(1).map((line) =>
          line
            .split('\t')
            .slice(1)
            .map((cell) => cell.trim()),
        ),
      ).toEqual([
        [who, `Stopped acting as ${studentName}`, '—', '—'],
        [who, `Acted as ${studentName}`, '—', 'Request: POST /manage/switch-account'],
        [
          who,
          `Started acting as ${studentName}`,
          '—',
          expect.stringMatching(
            /^Until: [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d\d\s[AP]M [A-Z]{2,4}$/,
          ),
        ],
      ]);
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it('issue 39: the help desk in French; a student is refused it; another campus does not find the student', async () => {
    const manager = await makeUser({ like: 'manager', label: 'helpdesk-fr' });
    const student = await makeUser({ like: 'student', label: 'helpdesk-fr-student' });
    const lakeshore = await makeUser({ like: 'lakeshore', label: 'helpdesk-lakeshore' });
    const french = await newContext(browser);
    try {
      const page = await french.newPage();
      await logIn(page, manager);
      await french.addCookies([{ name: 'LANG', value: 'fr-CA', url: page.url() }]);
      await page.goto(`/manage/users?q=${encodeURIComponent(student.email)}`);
      await page.getByRole('heading', { level: 1, name: 'Utilisateurs' }).waitFor();
      await page.getByLabel('Trouver une personne').waitFor();
      await page.getByRole('heading', { level: 2, name: '1 personne trouvée' }).waitFor();
      await expectAccessible(page);
      await page.goto(`/manage/users/${student.id}`);
      await page.getByRole('button', { name: 'Passer à ce compte' }).waitFor();
      const frSections = page.getByRole('table', { name: 'Sections' });
      await frSections.waitFor();
      expect((await frSections.getByRole('rowheader').first().innerText()).trim()).toMatch(
        /^[A-Z]+ \d+ : Section \w+ · \S/,
      );
      await page.getByRole('heading', { level: 2, name: 'Aider cette personne' }).waitFor();
      await expectAccessible(page);
      // On a 320 px phone the page keeps to the screen; its tables scroll in their own box.
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      );
      await page.setViewportSize({ width: 1280, height: 800 });
      // A search too long: said beside the field, in French, nothing searched.
      const bad = await page.goto(`/manage/users?q=${'x'.repeat(201)}`);
      expect(bad?.status()).toBe(400);
      await page.getByText('Recherchez au plus 200 caractères.', { exact: true }).waitFor();
      await expectAccessible(page);
    } finally {
      await french.close();
    }

    const others = await newContext(browser);
    try {
      const page = await others.newPage();
      await logIn(page, student);
      const forbidden = await page.goto('/manage/users');
      expect(forbidden?.status()).toBe(403);
      await page
        .getByRole('heading', { level: 1, name: "Sorry, you can't access this page." })
        .waitFor();
      await page.context().clearCookies();
      await logIn(page, lakeshore);
      await page.goto(`/manage/my-users?q=${encodeURIComponent(student.email)}`);
      await page.getByRole('heading', { level: 2, name: 'Nobody found' }).waitFor();
      const hidden = await page.goto(`/manage/users/${student.id}`);
      expect(hidden?.status()).toBe(404);
      await page
        .getByRole('heading', { level: 1, name: 'Sorry, this person was not found.' })
        .waitFor();
    } finally {
      await others.close();
    }
  });
});
