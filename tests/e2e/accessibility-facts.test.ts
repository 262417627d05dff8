import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEpub } from '#db/seed/content/epub.ts';
import { buildFixedLayoutEpub } from '#db/seed/content/fixed-layout-epub.ts';
import { ONIX_FOOTER, onixHeader, onixProduct } from '#db/seed/onix-feed.ts';
import { isbn13CheckDigit } from '#domain/catalog/isbn.ts';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 38, "accessibility facts as the publisher stated them": a fixed-layout EPUB whose
// metadata says its appearance cannot be modified showed "No information about appearance
// modifiability", and a book declaring ARIA roles did not list them. Tried as it happens: a
// manager imports a publisher's ONIX feed with its EPUB files on the Admin page, the publisher
// sends the feed again (a new price), and a shopper reads the ACCESSIBILITY tab in English and
// in French: the W3C display guide's statements for each book, from its EPUB or its record.

let browser: Browser;
let dir = '';
beforeAll(async () => {
  browser = await launchBrowser();
  dir = mkdtempSync(path.join(tmpdir(), 'a11y-facts-e2e-'));
});
afterAll(async () => {
  await browser?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const freshIsbn = () => {
  const body = `979${String(Math.floor(Math.random() * 1e9)).padStart(9, '0')}`;
  return body + isbn13CheckDigit(body);
};

type Book = { reference: string; isbn: string; title: string; codes: string[] };

/**
 * The feed as a children's and an educational publisher send it: the picture book's record
 * says nothing of its layout; the textbook's says its text can be restyled (36); the atlas is
 * sold by its record alone, which says it is fixed format (E201) with ARIA roles (30).
 */
function feed(books: { picture: Book; textbook: Book; atlas: Book }, cents: number): string {
  const product = (b: Book) =>
    onixProduct({
      reference: b.reference,
      isbn13: b.isbn,
      format: 'EPUB',
      title: b.title,
      contributors: [{ name: 'Ana Lima', role: 'A01' }],
      publisher: 'Picture & Text Publishers',
      language: 'eng',
      bisac: [],
      description: 'A book of the accessibility journey.',
      priceCents: cents,
      accessibility: b.codes,
      fileName: b === books.atlas ? null : `${b.isbn}.epub`,
    });
  const atlas = product(books.atlas).replace(
    '<ProductFormDetail>E101</ProductFormDetail>',
    '<ProductFormDetail>E101</ProductFormDetail><ProductFormDetail>E201</ProductFormDetail>',
  );
  return `${onixHeader('Picture & Text Publishers', new Date())}${product(books.picture)}${product(books.textbook)}${atlas}${ONIX_FOOTER}`;
}

async function importFeed(page: Page, text: string, files: string[], updated: string) {
  const file = path.join(dir, `feed-${Date.now()}.xml`);
  writeFileSync(file, text);
  await page.goto('/manage/admin');
  await waitForHydration(page);
  await page.getByLabel('ONIX file').setInputFiles(file);
  if (files.length > 0) {
    await page
      .getByLabel('Book files and covers (EPUB, PDF, JPEG, PNG; optional)')
      .setInputFiles(files);
  }
  await page.getByRole('button', { name: 'Import' }).click();
  await page.waitForURL(/\/manage\/admin\/imports\/\d+$/);
  await page.getByText('Done', { exact: true }).waitFor({ timeout: 60_000 });
  await page.getByRole('table', { name: 'Records' }).getByRole('row', { name: updated }).waitFor();
}

async function openProduct(page: Page, book: Book) {
  await page.goto(`/search?terms=${book.isbn}`);
  await page.getByRole('link', { name: book.title }).first().click();
  await page.getByRole('heading', { name: book.title, level: 1 }).waitFor();
  await waitForHydration(page);
}

const tag = `${process.pid}${Date.now().toString(36)}`;
const book = (n: number, title: string, codes: string[]): Book => ({
  reference: `org.example.a11y.${tag}.${n}`,
  isbn: freshIsbn(),
  title: `${title} ${tag}`,
  codes,
});
const books = {
  picture: book(1, 'The Night Lamp', ['10', '22', '14']),
  textbook: book(2, 'Cells and Systems', ['10', '11', '36', '52']),
  atlas: book(3, 'Atlas of Rivers', ['10', '22', '30']),
};

describe('accessibility facts as the publisher stated them (issue 38)', () => {
  beforeAll(async () => {
    const picture = path.join(dir, `${books.picture.isbn}.epub`);
    writeFileSync(
      picture,
      buildFixedLayoutEpub({
        title: books.picture.title,
        author: 'Ana Lima',
        language: 'en',
        identifier: books.picture.isbn,
        pages: [
          { text: '', alt: 'A lamp by a window at night', colour: '#1e3a8a' },
          { text: 'The lamp is on.', alt: 'A lamp lights a desk', colour: '#f59e0b' },
        ],
      }),
    );
    const textbook = path.join(dir, `${books.textbook.isbn}.epub`);
    writeFileSync(
      textbook,
      buildEpub({
        title: books.textbook.title,
        author: 'Ana Lima',
        language: 'en',
        identifier: books.textbook.isbn,
        chapters: [{ title: 'Cells', paragraphs: ['Cells divide.'] }],
        accessibilityFeatures: [
          'displayTransformability',
          'tableOfContents',
          'structuralNavigation',
          'aria',
        ],
      }),
    );
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'manager', label: 'a11y-facts' }));
    await importFeed(page, feed(books, 1299), [picture, textbook], 'New 3');
    await page
      .getByRole('table', { name: 'Records' })
      .getByRole('row', { name: 'Book files attached 2', exact: true })
      .waitFor();
    // The publisher sends its feed again, with a new price and no files.
    await importFeed(page, feed(books, 1499), [], 'Updated 3');
    await context.close();
  });

  it('in English: "Appearance cannot be modified" for the fixed-layout books, "ARIA roles included" for those declaring ARIA', async () => {
    const english = await newContext(browser);
    const shopper = await english.newPage();
    await openProduct(shopper, books.picture);
    await shopper.getByRole('tab', { name: 'ACCESSIBILITY' }).click();
    const tab = shopper.getByRole('tabpanel', { name: 'ACCESSIBILITY' });
    await tab.getByText('Appearance cannot be modified', { exact: true }).waitFor();
    expect(
      await tab.getByText('No information about appearance modifiability is available').count(),
    ).toBe(0);
    await expectAccessible(shopper);

    await openProduct(shopper, books.textbook);
    await shopper.getByRole('tab', { name: 'ACCESSIBILITY' }).click();
    await shopper.getByText('Appearance can be modified', { exact: true }).waitFor();
    await shopper.getByRole('button', { name: 'See all accessibility metadata' }).click();
    const dialog = shopper.getByRole('dialog', { name: 'Accessibility Metadata' });
    await dialog.getByRole('heading', { name: 'Additional Accessibility Information' }).waitFor();
    await dialog.getByText('ARIA roles included', { exact: true }).waitFor();
    await expectAccessible(shopper);
    await shopper.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });

    // Sold by its record alone: the ONIX technique's statements.
    await openProduct(shopper, books.atlas);
    await shopper.getByRole('tab', { name: 'ACCESSIBILITY' }).click();
    await shopper.getByText('Appearance cannot be modified', { exact: true }).waitFor();
    await shopper.getByRole('button', { name: 'See all accessibility metadata' }).click();
    await dialog.getByText('ARIA roles included', { exact: true }).waitFor();
    await english.close();
  });

  it('in French: the display guide’s fr-CA statements', async () => {
    const french = await newContext(browser, { locale: 'fr-CA' });
    const lecteur = await french.newPage();
    await openProduct(lecteur, books.picture);
    await lecteur.getByRole('tab', { name: 'ACCESSIBILITÉ' }).click();
    const onglet = lecteur.getByRole('tabpanel', { name: 'ACCESSIBILITÉ' });
    await onglet.getByRole('heading', { name: 'Méthodes de lecture' }).waitFor();
    await onglet.getByText('L’apparence ne peut pas être modifiée', { exact: true }).waitFor();
    await expectAccessible(lecteur);

    await openProduct(lecteur, books.textbook);
    await lecteur.getByRole('tab', { name: 'ACCESSIBILITÉ' }).click();
    await lecteur
      .getByRole('button', { name: 'Voir toutes les métadonnées d’accessibilité' })
      .click();
    const fenetre = lecteur.getByRole('dialog', { name: 'Métadonnées d’accessibilité' });
    await fenetre
      .getByRole('heading', { name: 'Renseignements supplémentaires sur l’accessibilité' })
      .waitFor();
    await fenetre.getByText('Rôles ARIA inclus', { exact: true }).waitFor();
    await expectAccessible(lecteur);
    await french.close();
  });
});
