import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEpub } from '#db/seed/content/epub.ts';
import { isbn13CheckDigit } from '#domain/catalog/isbn.ts';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  openUserMenu,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 15, tried as the store's manager would: the user menu's Admin page, an ONIX feed
// uploaded, its report followed until done (the refused record named with its reason), the
// imported book's page as the feed says, in English and French; a wrong file and ONIX 2.1
// refused with their reasons. Anyone else gets the forbidden page, and their upload is refused
// before it is read.

let browser: Browser;
let dir = '';
beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(tmpdir(), 'catalog-admin-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The reference fixture with its own references, ISBNs and title, so journeys never meet. */
function feed(): { file: string; title: string; isbn: string } {
  const tag = `${process.pid}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const body = `979${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const isbn = body + isbn13CheckDigit(body);
  const other = `979${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  const title = `Principles of Organic Chemistry ${tag}`;
  const text = readFileSync('tests/fixtures/onix/reference-3.0.xml', 'utf8')
    .replaceAll('com.example.onix.', `com.example.onix.${tag}.`)
    .replace('9781234567897', isbn)
    .replace('9780306406157', other + isbn13CheckDigit(other))
    .replace(
      '<TitleWithoutPrefix>Principles of Organic Chemistry</TitleWithoutPrefix>',
      `<TitleWithoutPrefix>${title}</TitleWithoutPrefix>`,
    );
  const file = path.join(dir, `feed-${tag}.xml`);
  writeFileSync(file, text);
  return { file, title: `The ${title}`, isbn };
}

async function upload(page: Page, file: string, bookFiles: string[] = []) {
  await page.getByLabel('ONIX file').setInputFiles(file);
  if (bookFiles.length > 0) {
    await page
      .getByLabel('Book files and covers (EPUB, PDF, JPEG, PNG; optional)')
      .setInputFiles(bookFiles);
  }
  await page.getByRole('button', { name: 'Import' }).click();
}

describe('The Admin page: importing a catalog (issue 15)', () => {
  it('a manager imports an ONIX feed, follows it to its report, and finds the book as the feed says', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'manager', label: 'catalog-admin' }));
    await page.goto('/account');
    await waitForHydration(page);
    await openUserMenu(page);
    await page.getByRole('menu').getByRole('menuitem', { name: 'Admin', exact: true }).click();
    await page.getByRole('heading', { name: 'Admin', level: 1 }).waitFor();
    await waitForHydration(page);
    await expectAccessible(page);

    const { file, title, isbn } = feed();
    // The e-book's file, named by its ISBN, and one that is not an EPUB at all.
    const book = path.join(dir, `${isbn}.epub`);
    writeFileSync(
      book,
      buildEpub({
        title,
        author: 'José Núñez',
        language: 'en',
        identifier: isbn,
        chapters: [{ title: 'Atoms', paragraphs: ['Carbon bonds four ways.'] }],
      }),
    );
    const fake = path.join(dir, `fake-${isbn}.epub`);
    writeFileSync(fake, 'not a zip');
    // The publisher's cover, named by the ISBN too.
    const coverFile = path.join(dir, `${isbn}.jpg`);
    writeFileSync(
      coverFile,
      await sharp({ create: { width: 600, height: 900, channels: 3, background: '#c00' } })
        .jpeg()
        .toBuffer(),
    );
    await upload(page, file, [book, fake, coverFile]);
    await page.waitForURL(/\/manage\/admin\/imports\/\d+$/);
    await page.getByText('Done', { exact: true }).waitFor({ timeout: 30_000 });
    const counts = page.getByRole('table', { name: 'Records' });
    await expect(
      counts.getByRole('row', { name: 'Records read 3', exact: true }).count(),
    ).resolves.toBe(1);
    await expect(counts.getByRole('row', { name: 'New 2', exact: true }).count()).resolves.toBe(1);
    await expect(counts.getByRole('row', { name: 'Refused 1', exact: true }).count()).resolves.toBe(
      1,
    );
    await page.getByText('The check digit of ISBN 9781234567890 is wrong.').waitFor();
    await counts.getByRole('row', { name: 'Book files attached 2', exact: true }).waitFor();
    await counts.getByRole('row', { name: 'Book files refused 1', exact: true }).waitFor();
    await page.getByText('This EPUB is not a ZIP container.').waitFor();
    await expectAccessible(page);

    // The import is listed on the Admin page.
    await page.getByRole('link', { name: 'Back to Admin' }).click();
    await page.getByRole('cell', { name: path.basename(file) }).waitFor();

    // The book, found by its ISBN, says what the feed says.
    await page.goto(`/search?terms=${isbn}`);
    await page
      .getByRole('link', { name: new RegExp(title) })
      .first()
      .click();
    await page.getByRole('heading', { name: title, level: 1 }).waitFor();
    await page.getByText('by José Núñez').waitFor();
    await page.getByText('Zoë Ångström (Translator) · Chidi Okafor (Introduction)').waitFor();
    await page.getByText('Chemistry Foundations, 4').waitFor();
    await page.getByText('$54.99').first().waitFor();
    // With its file attached, the book is for sale.
    await page.getByRole('button', { name: 'Add To Cart' }).waitFor();
    await page.getByText('Mechanisms', { exact: false }).first().waitFor();
    // The publisher's cover, which Chromium takes as AVIF, at the size the page keeps for it.
    const cover = page.getByRole('img', { name: /^Cover of/ });
    await expect
      .poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
      .toBe(300);
    expect(await cover.evaluate((img: HTMLImageElement) => img.currentSrc)).toMatch(
      /\/covers\/\d+-300\.avif\?v=p[0-9a-f]{16}$/,
    );
    await context.close();

    const french = await newContext(browser, { locale: 'fr-CA' });
    const frenchPage = await french.newPage();
    await frenchPage.goto(`/search?terms=${isbn}`);
    await frenchPage
      .getByRole('link', { name: new RegExp(title) })
      .first()
      .click();
    await frenchPage.getByText('Zoë Ångström (Traduction) · Chidi Okafor (Introduction)').waitFor();
    await french.close();
  });

  it('refuses a file that is not XML, and an ONIX 2.1 feed with its version', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'manager', label: 'catalog-admin-bad' }));
    await page.goto('/manage/admin');
    await waitForHydration(page);
    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'not a feed');
    await upload(page, text);
    await page.getByText('The file must be an ONIX XML file (.xml, .onx or .onix).').waitFor();
    await expectAccessible(page);

    const old = path.join(dir, `old-${process.pid}.xml`);
    writeFileSync(
      old,
      '<?xml version="1.0"?><ONIXMessage release="2.1"><Header><FromCompany>Old</FromCompany></Header><Product><RecordReference>old</RecordReference><ProductForm>BC</ProductForm></Product></ONIXMessage>',
    );
    await upload(page, old);
    await page.waitForURL(/\/manage\/admin\/imports\/\d+$/);
    await page.getByText('Failed', { exact: true }).waitFor({ timeout: 30_000 });
    await page
      .getByText(
        'This file is ONIX 2.1. The store imports ONIX 3.0 and 3.1: please send the feed as ONIX 3.x.',
      )
      .waitFor();
    await context.close();
  });

  it('is forbidden to a student, whose upload is refused before it is read', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'catalog-admin-student' }));
    const response = await page.goto('/manage/admin');
    expect(response?.status()).toBe(403);
    await page.getByText("Sorry, you can't access this page.").waitFor();
    const upload = await page.request.post(`${baseUrl()}/manage/admin/imports`, {
      multipart: {
        feed: {
          name: 'feed.xml',
          mimeType: 'application/xml',
          buffer: Buffer.from('<ONIXMessage/>'),
        },
      },
    });
    expect(upload.status()).toBe(403);
    await context.close();
  });
});
