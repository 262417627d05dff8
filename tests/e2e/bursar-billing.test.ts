import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { chooseLanguage, expectAccessible, launchBrowser, logIn, newContext } from './browser.ts';
import { makeBillingTerm, makeUser } from './fixtures.ts';

// Issue 39, billing the bursar: a campus's programme staff preview a term's charge file,
// finalise it once, download it (the stored CSV in the campus's columns), and a second run
// says there is nothing new; the pages in French; a student is refused and another campus's
// staff find nothing.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('issue 39: bursar billing', () => {
  it('issue 39: the bookstore previews, finalises once, downloads the file; nothing new the second time; in French too', async () => {
    const staff = await makeUser({ like: 'bookstore', label: 'billing-staff' });
    const term = await makeBillingTerm(staff.email);
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, staff);
      await page.goto('/manage/billing');
      await page.getByRole('heading', { level: 1, name: 'Billing' }).waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: term.title }).click();
      await page.getByRole('heading', { level: 1, name: `Billing: ${term.title}` }).waitFor();
      expect(await page.title()).toBe(`Billing: ${term.title} | Shelfmark`);
      const termPath = new URL(page.url()).pathname;

      // The preview: the two opted-in students with campus ids; nobody opted out; the open
      // section waits; the student without a campus id is named, not billed.
      await page.getByText('2 charges, 0 credits, net $158.00.').waitFor();
      const preview = page.getByRole('table', { name: 'Next charge file (preview)' });
      expect(await preview.getByRole('row').count()).toBe(3);
      await preview.getByRole('row', { name: /Zoë Student/ }).waitFor();
      expect(await preview.getByRole('row', { name: /Omar/ }).count()).toBe(0);
      await page.getByText(new RegExp(`^${term.course} 002: opt-out deadline `)).waitFor();
      await page.getByText(`Noid Student, ${term.course} 001`).waitFor();
      await expectAccessible(page);

      // A second tab on the same preview, to finalise again once the first has.
      const second = await context.newPage();
      await second.goto(termPath);
      await second.getByRole('button', { name: 'Finalise run' }).waitFor();

      // It cannot be undone, so it asks first: what the file will hold, then the same button.
      await page.getByRole('button', { name: 'Finalise run' }).click();
      const question = page.getByRole('region', { name: `Finalise billing for ${term.title}?` });
      await question
        .getByText(
          '2 charges, 0 credits, net $158.00. This cannot be undone: a refund or a drop is credited in a later file.',
        )
        .waitFor();
      expect(await page.getByText(/^File \d+ is final/).count()).toBe(0);
      await expectAccessible(page);
      await question.getByRole('button', { name: 'Finalise run' }).click();
      const made = page.getByText(/^File \d+ is final\. Download it below\.$/);
      await made.waitFor();
      const number = (await made.textContent())!.match(/File (\d+)/)![1]!;
      await page.getByText('Nothing new to bill.').waitFor();
      expect(await page.getByRole('button', { name: 'Finalise run' }).count()).toBe(0);

      const link = page.getByRole('link', { name: `Download file ${number}` });
      const href = (await link.getAttribute('href'))!;
      const download = await page.request.get(href);
      expect(download.status()).toBe(200);
      expect(download.headers()['content-disposition']).toMatch(
        /^attachment; filename="charges-\d{4}-Billing-term-\w+\.csv"$/,
      );
      const stamp = term.course.slice(4);
      const csv =
        'Student ID,Amount,Currency,Term,Course,Section,Description,Type\r\n' +
        `'=E2E-${stamp}-B,79.00,USD,${term.title},${term.course},001,Course fee ${term.course} 001,charge\r\n` +
        `E2E-${stamp}-A,79.00,USD,${term.title},${term.course},001,Course fee ${term.course} 001,charge\r\n`;
      expect(await download.text()).toBe(csv);
      // Downloaded again: the same bytes.
      expect(await (await page.request.get(href)).text()).toBe(csv);

      // The other tab's stale preview: finalising again bills nothing, makes no file, and asks
      // nothing (its preview is gone).
      await second.getByRole('button', { name: 'Finalise run' }).click();
      await second.getByRole('alert').getByText('Nothing new to bill.').waitFor();
      await second.reload();
      expect(await second.getByRole('link', { name: /^Download file/ }).count()).toBe(1);
      await second.close();

      // In French: the term's page, its columns and its reconciliation.
      await chooseLanguage(page, 'Français (Canada)', termPath);
      await page.getByRole('heading', { level: 1, name: `Facturation : ${term.title}` }).waitFor();
      await page.getByRole('link', { name: `Télécharger le fichier ${number}` }).waitFor();
      // The run is in the term's history, by the person who made it.
      await page
        .getByRole('region', { name: 'Historique des modifications' })
        .getByRole('row', { name: new RegExp(staff.email.replace(/[.+]/g, '\\$&')) })
        .waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Rapprochement' }).click();
      await page
        .getByRole('heading', { level: 1, name: `Rapprochement : ${term.title}` })
        .waitFor();
      // The student without a campus id is the one difference: expected, not billed.
      const differences = page.getByRole('table', { name: 'Écarts par étudiant' });
      expect(await differences.getByRole('row').count()).toBe(2);
      await differences
        .getByRole('row', { name: /Noid Student/ })
        .getByText("Non facturé : aucun numéro d'étudiant")
        .waitFor();
      await expectAccessible(page);
      await page.getByRole('link', { name: `Facturation : ${term.title}` }).click();
      await page.getByRole('link', { name: 'Colonnes du fichier de frais' }).click();
      await page
        .getByRole('heading', { level: 1, name: /^Colonnes du fichier de frais : / })
        .waitFor();
      await page.getByLabel('Colonne 1 : en-tête').waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });

  it("issue 39: the campus's paid file is streamed, compared and not kept; past 5 MB a 413 says so in French", async () => {
    const staff = await makeUser({ like: 'bookstore', label: 'billing-paid' });
    const term = await makeBillingTerm(staff.email);
    const stamp = term.course.slice(4);
    const reconciliation = `/manage/billing/terms/${term.termId}/reconciliation`;
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, staff);
      await page.goto(reconciliation);
      await page
        .getByRole('heading', { level: 1, name: `Reconciliation: ${term.title}` })
        .waitFor();
      await page.getByText(/at most 5 MB\. It is compared, not kept\.$/).waitFor();

      // A normal file, through the edge's streamed upload: quoted fields, CRLF, a BOM.
      const paid = `\uFEFFcampus_id,amount\r\n"E2E-${stamp}-A",79.00\r\nE2E-${stamp}-B,40\r\n`;
      await page
        .getByLabel("The campus's paid file (CSV, optional)")
        .setInputFiles({ name: 'paid.csv', mimeType: 'text/csv', buffer: Buffer.from(paid) });
      const [answer] = await Promise.all([
        // The form's own post: not the page-view beacon, also a POST (answered 204).
        page.waitForResponse(
          (r) => r.request().method() === 'POST' && r.url().includes('/reconciliation'),
        ),
        page.getByRole('button', { name: 'Compare with paid' }).click(),
      ]);
      expect(answer.status()).toBe(200);
      await page.getByText('2 paid lines read.').waitFor();
      await page.getByText('$119.00').waitFor();
      const differences = page.getByRole('table', { name: 'Differences by student' });
      // Nothing billed yet: A and B expected (not billed) and paid (never billed); Noid.
      expect(await differences.getByRole('row').count()).toBe(6);
      await differences
        .getByRole('row', { name: /Paid, never billed/ })
        .filter({ hasText: '$40.00' })
        .getByRole('rowheader', { name: `E2E-${stamp}-B` })
        .waitFor();
      await expectAccessible(page);
      // The temporary file is gone: nothing under the uploads directory holds the file's lines.
      const dataDir = inject('dataDir');
      if (dataDir) {
        const dir = path.join(dataDir, 'uploads');
        const left = await readdir(dir).catch(() => [] as string[]);
        for (const name of left) {
          const text = await readFile(path.join(dir, name), 'utf8').catch(() => '');
          expect(text).not.toContain(`E2E-${stamp}-A`);
        }
      }

      // Past the limit, in French: the edge refuses it before reading it, and says the limit.
      await chooseLanguage(page, 'Français (Canada)', reconciliation);
      await page.getByText(/5 Mo au plus\. Il est comparé, pas conservé\.$/).waitFor();
      const big = Buffer.alloc(5 * 1024 * 1024 + 1, 'x');
      big.write(`campus_id,amount\nE2E-${stamp}-A,79.00\n`);
      await page
        .getByLabel('Fichier des paiements du campus (CSV, facultatif)')
        .setInputFiles({ name: 'paid.csv', mimeType: 'text/csv', buffer: big });
      const [refused] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST'),
        page.getByRole('button', { name: 'Comparer avec les paiements' }).click(),
      ]);
      expect(refused.status()).toBe(413);
      await page
        .getByRole('heading', {
          level: 1,
          name: /^Le fichier des paiements dépasse 5 Mo, le maximum que lit le rapprochement\./,
        })
        .waitFor();
    } finally {
      await context.close();
    }
  });

  it('issue 39: a student is refused; another campus finds neither the term nor its file', async () => {
    const staff = await makeUser({ like: 'bookstore', label: 'billing-owner' });
    const term = await makeBillingTerm(staff.email);
    const student = await makeUser({ like: 'student', label: 'billing-student' });
    const lakeshore = await makeUser({ like: 'lakeshore', label: 'billing-lakeshore' });

    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await logIn(page, student);
      const refused = await page.goto('/manage/billing');
      expect(refused?.status()).toBe(403);
      await page.getByText("Sorry, you can't access this page.").waitFor();
    } finally {
      await context.close();
    }

    const other = await newContext(browser);
    try {
      const page = await other.newPage();
      await logIn(page, lakeshore);
      await page.goto('/manage/billing');
      expect(await page.getByRole('link', { name: term.title }).count()).toBe(0);
      const missing = await page.goto(`/manage/billing/terms/${term.termId}`);
      expect(missing?.status()).toBe(404);
      await page.getByText("Sorry, that page doesn't exist.").waitFor();
      expect(
        (await page.goto(`/manage/billing/terms/${term.termId}/reconciliation`))?.status(),
      ).toBe(404);
      expect((await page.goto('/manage/billing/terms/0x10'))?.status()).toBe(404);
    } finally {
      await other.close();
    }
  });
});
