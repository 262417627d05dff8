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
import { feedEbook, makeUser } from './fixtures.ts';

// Issue 39, Course Manager: a bookstore manager makes a term, a course and a section with a fee
// and an opt-out deadline, is refused a malformed fee beside the field with what was typed
// kept, adds a student and a material (by keyboard) and switches it between optional and
// required, reads the audit on the section's page, and edits it in French; another campus's
// bookstore manager gets the not-found page for that section, and a student the forbidden page
// for the tool.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Submits a form by its button and waits for the page the redirect or refusal shows. */
async function submit(page: Page, button: string, expected: RegExp | string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.getByText(expected).first().waitFor();
  await waitForHydration(page);
}

describe('issue 39: Course Manager', () => {
  it('issue 39: a bookstore manager makes a term, a course and a section, adds a member and a material, reads the audit; in English and French; another campus and a student are kept out', async () => {
    const bookstore = await makeUser({ like: 'bookstore', label: 'courses-bookstore' });
    // The demo student's campus is not Riverbend; the course manager's is.
    const student = await makeUser({ label: 'courses-student' });
    const colleague = await makeUser({ like: 'coursemanager', label: 'courses-colleague' });
    const productId = await feedEbook();
    const stamp = Date.now().toString(36).toUpperCase();
    const dept = `Z${stamp.slice(-5)}`;
    let sectionPath = '';

    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, bookstore);
      await page.goto('/manage/course-manager');
      await page.getByRole('heading', { level: 1, name: 'Terms' }).waitFor();
      expect(await page.title()).toBe('Terms | Shelfmark');
      await expectAccessible(page);

      // A term.
      await page.getByLabel('Title', { exact: true }).fill(`Fall ${stamp}`);
      await page.getByLabel('Type of term', { exact: true }).selectOption({ label: 'Semester' });
      await page.getByLabel('Start date', { exact: true }).fill('2030-08-26');
      await page.getByLabel('End date', { exact: true }).fill('2030-12-20');
      await submit(page, 'Create the term', 'The term is created.');
      await page.getByRole('heading', { level: 1, name: `Term: Fall ${stamp}` }).waitFor();

      // A course of the campus.
      await page.getByRole('link', { name: 'Courses', exact: true }).click();
      await page.getByRole('heading', { level: 1, name: 'Courses' }).waitFor();
      await page.getByLabel('Course title', { exact: true }).fill('Marine Biology');
      await page.getByLabel('Department', { exact: true }).fill(dept.toLowerCase());
      await page.getByLabel('Course number', { exact: true }).fill('240');
      await page
        .getByLabel('Course type', { exact: true })
        .selectOption({ label: 'Inclusive access' });
      await submit(page, 'Create the course', 'The course is created.');
      await page.getByRole('heading', { level: 1, name: `${dept} 240: Marine Biology` }).waitFor();
      await expectAccessible(page);

      // A section: a malformed fee is refused beside its field, what was typed stays.
      await page.getByRole('link', { name: 'New section' }).click();
      await page.getByRole('heading', { level: 1, name: `New section of ${dept} 240` }).waitFor();
      expect(await page.getByLabel('Section title', { exact: true }).inputValue()).toBe(
        'Marine Biology',
      );
      await page.getByLabel('Section number', { exact: true }).fill('001');
      await page.getByLabel('Term', { exact: true }).selectOption({ label: `Fall ${stamp}` });
      await page.getByLabel('Start date', { exact: true }).fill('2030-08-26');
      await page.getByLabel('End date', { exact: true }).fill('2030-12-20');
      await page.getByLabel('Course time zone', { exact: true }).fill('America/Toronto');
      await page.getByLabel('Deadline date', { exact: true }).fill('2030-09-09');
      await page.getByLabel('Deadline time', { exact: true }).fill('23:59');
      await page.getByLabel('Course fee (USD)', { exact: true }).fill('79.001');
      await submit(
        page,
        'Create the section',
        'Nothing was saved. Correct the fields marked below.',
      );
      const fee = page.getByLabel('Course fee (USD)', { exact: true });
      expect(await fee.getAttribute('aria-invalid')).toBe('true');
      await page
        .getByText('Enter the fee in dollars and cents, such as 79.00.', { exact: true })
        .waitFor();
      expect(await fee.inputValue()).toBe('79.001');
      expect(await page.getByLabel('Section number', { exact: true }).inputValue()).toBe('001');
      expect(await page.getByLabel('Deadline date', { exact: true }).inputValue()).toBe(
        '2030-09-09',
      );
      await expectAccessible(page);
      await fee.fill('79.00');
      await submit(page, 'Create the section', 'The section is created.');
      await page.getByRole('heading', { level: 1, name: `${dept} 240: Section 001` }).waitFor();
      sectionPath = new URL(page.url()).pathname;
      expect(sectionPath).toMatch(/^\/manage\/course-manager\/sections\/\d+$/);
      // The deadline as the course's clock reads it, and the fee.
      await page.getByText('Sep 9, 2030, 11:59 PM EDT', { exact: true }).waitFor();
      await page.getByText('$79.00', { exact: true }).waitFor();
      expect(await page.getByRole('link', { name: 'Import a roster' }).getAttribute('href')).toBe(
        '/manage/roster-imports',
      );

      // A member by e-mail, with a role: a person of another campus is not found here.
      await page.getByLabel('E-mail address', { exact: true }).fill(student.email);
      await submit(page, 'Add the member', 'Nothing was saved. Correct the fields marked below.');
      await page
        .getByText(
          'No account of this campus uses this address. To keep a place for it, use Section places.',
          { exact: true },
        )
        .waitFor();
      expect(await page.getByLabel('E-mail address', { exact: true }).inputValue()).toBe(
        student.email,
      );
      await page.getByLabel('E-mail address', { exact: true }).fill(colleague.email);
      await page.getByLabel('Role', { exact: true }).selectOption({ label: 'Teaching assistant' });
      await submit(page, 'Add the member', 'The member is added.');
      const members = page.getByRole('table', { name: 'Members' });
      const row = members.getByRole('row', { name: new RegExp(colleague.email) });
      expect(await row.getByRole('cell').first().innerText()).toBe('Teaching assistant');

      // A material by its id, by keyboard: type, choose, Enter.
      const reference = page.getByLabel('ISBN or product id', { exact: true });
      await reference.focus();
      await page.keyboard.type(String(productId));
      await page.keyboard.press('Tab');
      await page
        .getByLabel('Required or optional', { exact: true })
        .selectOption({ label: 'Optional' });
      await reference.focus();
      await page.keyboard.press('Enter');
      await page.getByText('The material is adopted.', { exact: true }).waitFor();
      const materials = page.getByRole('table', { name: 'Adopted materials' });
      expect(await materials.getByRole('row').nth(1).getByRole('cell').nth(1).innerText()).toBe(
        'Optional',
      );
      // After adoption it switches back to required, by keyboard: choose, Tab to its button,
      // Enter.
      const requiredChoice = materials.getByLabel(/^Required or optional: /);
      await requiredChoice.focus();
      await page.keyboard.type('Req');
      expect(await requiredChoice.inputValue()).toBe('required');
      await page.keyboard.press('Tab');
      expect(
        await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? ''),
      ).toMatch(/^Change whether .+ is required$/);
      await page.keyboard.press('Enter');
      await page
        .getByText('The material is saved as required or optional.', { exact: true })
        .waitFor();
      await waitForHydration(page);
      expect(await materials.getByRole('row').nth(1).getByRole('cell').nth(1).innerText()).toBe(
        'Required',
      );

      // The audit on the section's page: who did what, in words a manager reads (money, the
      // deadline with its zone, labels), never the codes and field names it is stored with.
      const audit = page.getByRole('table', { name: 'Change history' });
      for (const action of [
        'Section created',
        'Member added',
        'Material adopted',
        'Material made required or optional',
      ]) {
        await audit.getByRole('row', { name: new RegExp(action) }).waitFor();
      }
      const created = await audit.getByRole('row', { name: /Section created/ }).innerText();
      expect(created).toContain(bookstore.email);
      expect(created).toContain('Course fee: $79.00');
      expect(created).toContain('Opt-out deadline: Sep 9, 2030, 11:59 PM EDT');
      expect(created).toContain('Opting: Students may opt out');
      const added = await audit.getByRole('row', { name: /Member added/ }).innerText();
      expect(added).toContain('Role: Teaching assistant');
      expect(added).toContain('Billed by course fee: No');
      expect(await audit.innerText()).not.toMatch(
        /section\.create|member\.add|courseFeeCents|isCourseFee|addDropAt|userId|opt-out\b/,
      );
      await expectAccessible(page);

      // On a phone 320 px wide the members table fits: each member a short block of cells,
      // not columns scrolling sideways past empty space.
      const wide = page.viewportSize();
      await page.setViewportSize({ width: 320, height: 800 });
      // The table's own scrolling box (TableScroll) has nothing to scroll sideways.
      expect(
        await members.evaluate((table) => {
          const box = table.parentElement!;
          return box.scrollWidth - box.clientWidth;
        }),
      ).toBeLessThanOrEqual(0);
      await members.getByRole('row', { name: new RegExp(colleague.email) }).waitFor();
      if (wide) await page.setViewportSize(wide);

      // Removing a member asks first; Cancel leaves them, and the question is where focus is.
      const removeColleague = members.getByRole('button', {
        name: /^Remove .+ from the section$/,
      });
      await removeColleague.focus();
      await page.keyboard.press('Enter');
      const question = page.getByRole('region', { name: /^Remove .+ from the section\?$/ });
      await question.waitFor();
      await waitForHydration(page);
      expect(await question.evaluate((el) => el.contains(document.activeElement))).toBe(true);
      // The last save's notice (still in the URL) is not repeated above the question.
      expect(
        await page
          .getByText('The material is saved as required or optional.', { exact: true })
          .count(),
      ).toBe(0);
      await expectAccessible(page);
      await question.getByRole('link', { name: 'Cancel', exact: true }).click();
      await question.waitFor({ state: 'detached' });
      await members.getByRole('row', { name: new RegExp(colleague.email) }).waitFor();
      await removeColleague.click();
      await submit(page, 'Remove from the section', 'The member is removed from the section.');
      expect(await members.getByRole('row', { name: new RegExp(colleague.email) }).count()).toBe(0);

      // In French: the same page, a refused end date and its message beside the field.
      await chooseLanguage(page, 'Français (Canada)', sectionPath);
      // On a phone 320 px wide nothing runs off the side: the tables scroll in their box.
      await page.setViewportSize({ width: 320, height: 800 });
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      );
      await page.getByRole('heading', { level: 1, name: `${dept} 240 : Section 001` }).waitFor();
      await page.getByLabel('Date de fin', { exact: true }).fill('2030-08-01');
      await submit(
        page,
        'Enregistrer',
        'Rien n’a été enregistré. Corrigez les champs indiqués ci-dessous.',
      );
      await page
        .getByText('La date de fin doit être le même jour que la date de début ou après.', {
          exact: true,
        })
        .waitFor();
      expect(await page.getByLabel('Date de fin', { exact: true }).inputValue()).toBe('2030-08-01');
      await expectAccessible(page);
      await page.getByLabel('Date de fin', { exact: true }).fill('2030-12-18');
      await submit(page, 'Enregistrer', 'La section est enregistrée.');
      // The audit in French: the change, its field and dates in French words.
      const history = page.getByRole('table', { name: 'Historique des modifications' });
      const edited = history.getByRole('row', { name: /Section modifiée/ });
      await edited.waitFor();
      const editedText = (await edited.innerText()).replace(/[\u00a0\u202f]/g, ' ');
      expect(editedText).toContain('Date de fin : 20 déc. 2030');
      expect(editedText).toContain('Date de fin : 18 déc. 2030');
      const createdFr = (
        await history.getByRole('row', { name: /Section créée/ }).innerText()
      ).replace(/[\u00a0\u202f]/g, ' ');
      expect(createdFr).toContain('Frais de cours : 79,00 $ US');
      expect(createdFr).toContain('Adhésion : Les étudiants peuvent se désinscrire');
      await history.getByRole('row', { name: /Membre ajouté/ }).waitFor();
      // At 320 px the history scrolls in its own labelled box, reachable by keyboard.
      const box = page.getByRole('region', { name: 'Historique des modifications' });
      expect(await box.getAttribute('tabindex')).toBe('0');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        320,
      );
      await expectAccessible(page);
    } finally {
      await context.close();
    }

    // Another campus's bookstore manager: the section is not found.
    const lakeshore = await makeUser({ like: 'lakeshore', label: 'courses-lakeshore' });
    const other = await newContext(browser);
    try {
      const page = await other.newPage();
      await logIn(page, lakeshore);
      const response = await page.goto(sectionPath);
      expect(response?.status()).toBe(404);
      await page
        .getByRole('heading', { level: 1, name: "Sorry, that page doesn't exist." })
        .waitFor();
      await page.goto('/manage/course-manager/courses');
      expect(await page.getByText('Marine Biology').count()).toBe(0);
    } finally {
      await other.close();
    }

    // A student: the tool is forbidden.
    const visitor = await newContext(browser);
    try {
      const page = await visitor.newPage();
      await logIn(page, student);
      const response = await page.goto('/manage/course-manager');
      expect(response?.status()).toBe(403);
      await page
        .getByRole('heading', { level: 1, name: "Sorry, you can't access this page." })
        .waitFor();
      await expectAccessible(page);
    } finally {
      await visitor.close();
    }
  });
});
