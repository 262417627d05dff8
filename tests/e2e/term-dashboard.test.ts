import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  chooseLanguage,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
} from './browser.ts';
import { makeDashboardCampus, makeUser } from './fixtures.ts';

// Issue 39, the term at a glance: a bookstore manager on the dashboard-enabled partner site
// reads the running term's sections, filters them, opens the chart's figures and a section's
// opt-status CSV, in English and French; Campus Insights groups them by department; another
// campus's staff get not found for this campus, a student the forbidden page. The figures
// themselves are proved in tests/integration/term-dashboard.test.ts.
let browser: Browser;
let partner: string;
beforeAll(async () => {
  browser = await launchBrowser();
  partner = `http://partner.localhost:${new URL(baseUrl()).port}`;
});
afterAll(async () => {
  await browser?.close();
});

/** The cells of a table row found by its header, as a person reads them (no-break spaces as spaces). */
async function rowTexts(page: Page, name: string): Promise<string[]> {
  const row = page.getByRole('row', { name: new RegExp(`^${name}`) });
  return (await row.getByRole('cell').allInnerTexts()).map((text) =>
    text.replace(/[\u00a0\u202f]/g, ' ').trim(),
  );
}

describe('the term dashboard (issue 39)', () => {
  it('shows a campus’s term to its bookstore manager, filtered, charted, in English and French', async () => {
    const campus = await makeDashboardCampus();
    const context = await newContext(browser, { baseURL: partner });
    const page = await context.newPage();
    await logIn(page, campus.manager);
    await page.goto('/manage/inclusive-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Inclusive Dashboard' }).waitFor();
    await page.getByText(`${campus.title}: ${campus.term}`).waitFor();
    expect(await rowTexts(page, 'BIO 101: Section 001')).toEqual([
      '6',
      '1',
      '2',
      '3',
      '5 days',
      '$316.00',
      'CSV',
    ]);
    expect(await rowTexts(page, 'CHEM 101: Section 001')).toEqual([
      '3',
      '2',
      '1',
      '0',
      'Deadline passed',
      '$100.00',
      'CSV',
    ]);
    expect(await rowTexts(page, 'Total')).toEqual(['9', '3', '3', '3', '', '$416.00', '']);
    await page.getByText(/^Not yet decided: students who can still opt out/).waitFor();
    await page.getByRole('img', { name: /^Opt-outs over time/ }).waitFor();
    await page.getByText('The chart’s figures').click();
    const chartRows = page.getByRole('table', { name: 'Opt-outs over time' }).getByRole('row');
    expect(await chartRows.count()).toBe(3);
    expect((await chartRows.nth(1).getByRole('cell').allInnerTexts()).map((t) => t.trim())).toEqual(
      ['4', '0', '4'],
    );
    expect((await chartRows.nth(2).getByRole('cell').allInnerTexts()).map((t) => t.trim())).toEqual(
      ['0', '1', '3'],
    );
    await expectAccessible(page);

    // The opt-status CSV of a section opens and lists its students.
    const csvHref = await page
      .getByRole('link', { name: 'Opt status CSV of BIO 101: Section 001' })
      .getAttribute('href');
    expect(csvHref).toBe(`/manage/sections/${campus.sections.bio}/opt-status.csv`);
    // Fetched by the page itself: Node's resolver does not know *.localhost hosts.
    const csv = await page.evaluate(async (href) => {
      const response = await fetch(href);
      return { status: response.status, text: await response.text() };
    }, csvHref ?? '');
    expect(csv.status).toBe(200);
    // Six students, each once as the member (and again as the author of their own change).
    expect(new Set(csv.text.match(/dash-[\w-]+@students\.e2e\.test/g))).toHaveProperty('size', 6);

    // Filters are a GET form: the URL says them.
    await page.getByLabel('Department').selectOption('CHEM');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/department=CHEM/);
    await page.getByRole('row', { name: /^CHEM 101/ }).waitFor();
    expect(await page.getByRole('row', { name: /^BIO 101/ }).count()).toBe(0);
    expect(await rowTexts(page, 'Total')).toEqual(['3', '2', '1', '0', '', '$100.00', '']);

    // The course types and their labels are Course Manager's, course fee among them.
    expect(
      (await page.getByLabel('Course type').locator('option').allInnerTexts()).map((t) => t.trim()),
    ).toEqual([
      'All',
      'Inclusive access',
      'Course fee',
      'Regular',
      'Code Delivery System',
      'Student choice (bookstore partner)',
    ]);
    const byFee = await page.goto('/manage/inclusive-dashboard?courseType=course_fee');
    expect(byFee?.status()).toBe(200);
    expect(await page.getByRole('row', { name: /^BIO 101/ }).count()).toBe(0);

    // A filter no form sends: a clear 400, nothing else.
    const bad = await page.goto('/manage/inclusive-dashboard?courseType=everything');
    expect(bad?.status()).toBe(400);
    await page
      .getByRole('heading', {
        name: 'These filters are not valid. Choose them again from the form.',
      })
      .waitFor();

    // At 320 px the page scrolls its table, not itself.
    await page.setViewportSize({ width: 320, height: 700 });
    await page.goto('/manage/inclusive-dashboard');
    await page.getByRole('row', { name: /^BIO 101/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      320,
    );
    // The table's box scrolls from the keyboard (axe: scrollable-region-focusable).
    await expectAccessible(page);
    await page.goto('/manage/campus-insights');
    await page.getByRole('heading', { level: 1, name: 'Campus Insights Beta' }).waitFor();
    await expectAccessible(page);
    await page.setViewportSize({ width: 1280, height: 800 });

    // Campus Insights Beta: the same figures by department.
    await page.goto('/manage/campus-insights');
    await page.getByRole('heading', { level: 1, name: 'Campus Insights Beta' }).waitFor();
    expect(await rowTexts(page, 'BIO')).toEqual(['1', '6', '1', '2', '3', '67%', '$316.00']);
    await expectAccessible(page);

    // In French.
    await chooseLanguage(page, 'Français (Canada)', '/manage/inclusive-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Tableau de bord inclusif' }).waitFor();
    expect(await rowTexts(page, 'CHEM 101 : Section 001')).toEqual([
      '3',
      '2',
      '1',
      '0',
      'Date limite passée',
      '100,00 $ US',
      'CSV',
    ]);
    expect((await rowTexts(page, 'BIO 101 : Section 001'))[4]).toBe('5 jours');
    await page.getByText('Les chiffres du graphique').waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('another campus’s bookstore manager gets not found for it; a student the forbidden page', async () => {
    const campus = await makeDashboardCampus();
    const context = await newContext(browser, { baseURL: partner });
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'lakeshore', label: 'dashboard-other' }));
    await page.goto('/manage/inclusive-dashboard');
    await page.getByRole('heading', { level: 1, name: 'Inclusive Dashboard' }).waitFor();
    expect(await page.getByText(campus.title).count()).toBe(0);
    for (const path of [
      `/manage/inclusive-dashboard?org=${campus.orgId}`,
      `/manage/campus-insights?org=${campus.orgId}`,
    ]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { name: "Sorry, that page doesn't exist." }).waitFor();
    }
    await context.close();

    const studentContext = await newContext(browser, { baseURL: partner });
    const student = await studentContext.newPage();
    await logIn(student, await makeUser({ like: 'student', label: 'dashboard-student' }));
    const response = await student.goto('/manage/inclusive-dashboard');
    expect(response?.status()).toBe(403);
    await student.getByRole('heading', { name: "Sorry, you can't access this page." }).waitFor();
    await expectAccessible(student);
    await studentContext.close();
  });
});
