import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 39, roster import, as a campus's bookstore manager does it: a OneRoster zip uploaded as
// a dry run, what it would change read, applied, followed to done; the same page in French;
// another campus's bookstore manager is told the import does not exist; a student is refused.

let browser: Browser;
let dir = '';
beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(tmpdir(), 'roster-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The fixture package zipped, with its own e-mail domain so journeys never meet. */
function packageZip(): string {
  const work = mkdtempSync(path.join(dir, 'pkg-'));
  cpSync('tests/fixtures/oneroster/bulk', work, { recursive: true });
  const domain = `e2e${process.pid}${Date.now().toString(36)}.test`;
  for (const file of readdirSync(work)) {
    const text = readFileSync(path.join(work, file), 'utf8');
    writeFileSync(path.join(work, file), text.replaceAll('riverbend.test', domain));
  }
  const zip = path.join(dir, `export-${Date.now().toString(36)}.zip`);
  execFileSync('zip', ['-q', '-j', zip, ...readdirSync(work).map((f) => path.join(work, f))]);
  return zip;
}

async function chooseFrench(page: Page, next: string) {
  await page.goto(`/account/language?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Français (Canada)').check();
  await Promise.all([
    page.waitForURL((url) => url.pathname === next),
    page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
  ]);
  await waitForHydration(page);
}

describe('Roster import (issue 39)', () => {
  it('a bookstore manager previews a OneRoster zip, applies it, and reads it in French', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'bookstore', label: 'roster-import' }));
    await page.goto('/manage/roster-imports');
    await page.getByRole('heading', { level: 1, name: 'Roster imports' }).waitFor();
    await expectAccessible(page);
    await expect(
      page.getByLabel('Dry run: show what would change first').isChecked(),
    ).resolves.toBe(true);
    await page.getByLabel('OneRoster package (.zip, or the CSV files)').setInputFiles(packageZip());
    await page.getByRole('button', { name: 'Import' }).click();
    await page.getByText('Dry run done: nothing changed yet').waitFor();
    await page.getByRole('heading', { name: 'What would change' }).waitFor();
    await page
      .getByRole('cell', {
        name: 'The userSourcedId “usr-404” is neither in the package nor imported before.',
      })
      .waitFor();
    await expectAccessible(page);
    const url = new URL(page.url()).pathname;
    expect(url).toMatch(/^\/manage\/roster-imports\/\d+$/);

    await page.getByRole('button', { name: 'Apply this import' }).click();
    await page.getByText('Done', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'What changed' }).waitFor();
    const enrolments = page.getByRole('row', { name: /^Enrolments/ });
    await expect(enrolments.getByRole('cell').nth(0).textContent()).resolves.toBe('7');
    await expect(page.locator('progress').getAttribute('value')).resolves.toBe('33');
    await page.getByText('33 of 33 rows').waitFor();

    // The course's code as the campus wrote it, in Course Manager and on its course page.
    await page.goto('/manage/course-manager/courses');
    await page.getByRole('link', { name: 'CHM-210', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'CHM-210: Chimie organique' }).waitFor();
    await page.goto(url);

    await chooseFrench(page, url);
    await page.getByRole('heading', { name: 'Ce qui a changé' }).waitFor();
    await page.getByText('33 lignes sur 33').waitFor();
    await page
      .getByRole('cell', {
        name: 'Le rôle proctor ne fait pas d’une personne un membre d’une section de cours.',
      })
      .waitFor();
    await expectAccessible(page);
    await page.setViewportSize({ width: 320, height: 800 });
    await expectAccessible(page);
    await context.close();

    // Another campus's bookstore manager: not found, as an import that does not exist.
    const other = await newContext(browser);
    const otherPage = await other.newPage();
    await logIn(otherPage, await makeUser({ like: 'lakeshore', label: 'roster-other' }));
    const response = await otherPage.goto(url);
    expect(response?.status()).toBe(404);
    const csv = await otherPage.request.get(`${url}/report.csv`);
    expect(csv.status()).toBe(404);
    await other.close();

    const student = await newContext(browser);
    const studentPage = await student.newPage();
    await logIn(studentPage, await makeUser({ like: 'student', label: 'roster-student' }));
    expect((await studentPage.goto('/manage/roster-imports'))?.status()).toBe(403);
    await student.close();
  });
});
