import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 19, 'Everyone else on the walk', the instructor: section analytics name the section's
// own students to its professors and teaching assistants and to nobody else, list every
// material of the section, and export CSV. As a professor and a student of BIO 101 section
// 001 made like instructor@ and student@demo.test (fixtures.ts, db/seed/courses.ts).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const REFUSAL =
  'Only the professors and teaching assistants of this section can see its analytics.';

describe('section analytics', () => {
  it("the professor sees their students' names and every material, and downloads the CSV; a student and a stranger are refused", async () => {
    const student = await makeUser({ like: 'student', label: 'analytics-student' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'instructor', label: 'analytics-professor' }));
    await page.goto('/shelf');
    await page.locator('.course-card__link', { hasText: 'BIO 101' }).first().click();
    await page.getByRole('link', { name: 'View Section Analytics' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Section Analytics: BIO 101: Section 001' })
      .waitFor();
    const analyticsUrl = new URL(page.url());
    const sectionId = Number(analyticsUrl.pathname.split('/').at(-1));
    expect(sectionId).toBeGreaterThan(0);

    // The student, by name, with their e-mail.
    const students = page.getByRole('table', { name: 'The students of this section' });
    const row = students.getByRole('row').filter({ hasText: student.email });
    await row
      .getByRole('rowheader', { name: `${student.firstName} ${student.lastName}` })
      .waitFor();
    // Every material of the section, those nobody opened included (never opened).
    const materials = page.getByRole('table', {
      name: 'How the students of this section use each material',
    });
    const materialRows = materials.locator('tbody tr');
    const count = await materialRows.count();
    expect(count).toBeGreaterThan(0);
    // Issue 38: access is counted, not only purchases, and said through what: the course fee
    // opens the section's first material to its opted-in students, who bought nothing.
    const firstAccess = await materialRows.first().locator('td').first().innerText();
    expect(firstAccess).toMatch(/^\d+ of \d+\s*(.+ · )?Course fee: \d+/);
    expect(Number(firstAccess.match(/^(\d+)/)![1])).toBeGreaterThan(0);
    // Times say their zone.
    const lastOpened = await page.locator('tbody td').filter({ hasText: /\d{4}/ }).allInnerTexts();
    for (const when of lastOpened.filter((text) => /\d:\d\d/.test(text))) {
      expect(when).toMatch(/\b(E[SD]T|C[SD]T|M[SD]T|P[SD]T|UTC|GMT[+-]?\d*)$/);
    }
    await expectAccessible(page);

    // The CSV: a download, one line per student and material.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('section-analytics-bio-101-section-001.csv');
    const response = await page.request.get(`/courses/analytics/${sectionId}/analytics.csv`);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-disposition']).toMatch(/^attachment; filename="/);
    const lines = (await response.text())
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\r\n');
    expect(lines[0]).toBe(
      'Last name,First name,E-mail,Material,Access,Times opened,Last opened (UTC)',
    );
    expect(lines.filter((line) => line.includes(student.email))).toHaveLength(count);
    await context.close();

    // The section's own student gets the forbidden page, with the reason, for both.
    const other = await newContext(browser);
    const otherPage = await other.newPage();
    await logIn(otherPage, student);
    for (const path of [analyticsUrl.pathname, `${analyticsUrl.pathname}/analytics.csv`]) {
      const answer = await otherPage.goto(path);
      expect(answer?.status()).toBe(403);
      expect(answer?.headers()['content-type']).toMatch(/^text\/html/);
      await otherPage.getByRole('heading', { level: 1, name: REFUSAL }).waitFor();
      await otherPage.getByRole('link', { name: 'Go to My Shelf' }).waitFor();
      await expectAccessible(otherPage);
    }
    await other.close();
    // Someone who teaches nothing of this section: refused with the reason too.
    const stranger = await newContext(browser);
    const strangerPage = await stranger.newPage();
    await logIn(strangerPage, await makeUser({ label: 'analytics-stranger' }));
    const refused = await strangerPage.goto(`${analyticsUrl.pathname}/analytics.csv`);
    expect(refused?.status()).toBe(403);
    await strangerPage.getByRole('heading', { level: 1, name: REFUSAL }).waitFor();
    await stranger.close();
  });
});
