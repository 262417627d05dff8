import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { bisacTree } from '#db/reference/bisac.ts';
import { categories, productCategories, productFeatures, products } from '#db/schema/catalog.ts';
import type { Locale } from '#domain/accounts/language.ts';
import { editionWording } from '#domain/catalog/edition.ts';
import { featureWording } from '#domain/catalog/product-features.ts';
import { isMessageWording, type Wording } from '#domain/shared/wording.ts';
import { translate } from '#i18n/translate.ts';
import { insertProduct, uniqueDigits } from '#tests/builders.ts';
import { openTestDatabase, testWebContext } from '#tests/database.ts';
import { loader } from '#web/routes/product.tsx';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const science = bisacTree.find((node) => node.code === 'SCI000000')!;
const biology = science.children
  .flatMap((node) => [node, ...node.children])
  .find((node) => node.code === 'SCI008000')!;

/** An English EPUB in Science › Biology, described as the demo describes its books. */
async function englishBook(): Promise<number> {
  const db = database.db;
  const code = () =>
    `ZZ${String.fromCharCode(65 + Math.floor(Math.random() * 26))}${uniqueDigits(6)}`;
  const slug = uniqueDigits(10);
  const [parent] = await db
    .insert(categories)
    .values({
      code: code(),
      title: science.title,
      titleFrCa: science.titleFrCa,
      urlSlug: `s-${slug}`,
    })
    .returning({ id: categories.id });
  const [child] = await db
    .insert(categories)
    .values({
      code: code(),
      title: biology.title,
      titleFrCa: biology.titleFrCa,
      urlSlug: `b-${slug}`,
      parentId: parent!.id,
      depth: 1,
    })
    .returning({ id: categories.id });
  const id = await insertProduct(db, {
    title: 'Principles of Cell Biology',
    description: 'An introduction to the living cell.',
    languageCode: 'en',
    productFileType: 'EPUB',
    editionNumber: 3,
  });
  await db.insert(productCategories).values({ productId: id, categoryId: child!.id, position: 0 });
  const feature = (
    category: 'ebook' | 'accessibility',
    subcategory: string | null,
    code: string | null,
    name: string,
    detail: string,
    position: number,
  ) => ({ productId: id, category, subcategory, code, name, detail, position });
  await db
    .insert(productFeatures)
    .values([
      feature('ebook', null, 'offline', 'Offline Reading', 'Download the book and read.', 0),
      feature('ebook', null, null, 'Lab Simulations', 'Virtual experiments.', 1),
      feature(
        'accessibility',
        'Ways of Reading',
        'ways-of-reading-visual-adjustments-modifiable',
        'Visual adjustments',
        'Appearance can be modified',
        0,
      ),
      feature('accessibility', 'Conformance', 'conformance-aa', 'Conformance', 'x', 10),
      feature(
        'accessibility',
        'Conformance',
        'conformance-details-claim',
        'Standard',
        'EPUB Accessibility 1.1 - WCAG 2.1 Level AA',
        11,
      ),
      feature('accessibility', 'Navigation', 'navigation-toc', 'Table of contents', 'x', 20),
      feature('accessibility', 'Hazards', 'hazards-none', 'Hazards', 'No hazards', 40),
      feature(
        'accessibility',
        'Accessibility Summary',
        null,
        'Summary',
        'This publication has a table of contents.',
        50,
      ),
    ]);
  return id;
}

async function productPage(id: number, locale: Locale) {
  const data = await loader({
    request: new Request(`http://localhost/product-detail/${id}`),
    params: { id: String(id) },
    context: testWebContext(database, { locale }),
  } as unknown as Parameters<typeof loader>[0]);
  return (data as Exclude<typeof data, Response>).product;
}

const inLocale = (locale: Locale) => (wording: Wording | null) =>
  wording === null
    ? null
    : isMessageWording(wording)
      ? translate(locale, wording.message, wording.values)
      : wording.text;

// Issue 13: a fr-CA product page showed the seed's English category names, feature lists,
// accessibility statements and edition. The store's own words are French now (the W3C display
// guide's French wording for accessibility); what the publisher wrote stays as written.
describe('a product page in French (issue 13)', () => {
  it('names the categories, features, accessibility statements and edition in French', async () => {
    const id = await englishBook();
    const product = await productPage(id, 'fr-CA');
    const fr = inLocale('fr-CA');

    expect(product.breadcrumb.map((c) => c.title)).toEqual(['Sciences', 'Biologie']);
    expect(product.ebookFeatures.map((f) => fr(featureWording(f).name))).toEqual([
      'Lecture hors ligne',
      'Lab Simulations',
    ]);
    expect(fr(editionWording(product))).toBe('3e édition');

    const groups = Object.fromEntries(
      product.accessibility!.map((g) => [g.name, g.items.map((i) => fr(i.wording))]),
    );
    expect(groups['Ways of Reading']).toEqual(['L’apparence peut être modifiée']);
    expect(groups.Conformance).toEqual([
      'Cette publication respecte les normes d’accessibilité acceptées',
      'Cette publication prétend satisfaire Accessibilité EPUB 1.1 WCAG 2.1 Niveau AA',
    ]);
    expect(groups.Navigation).toEqual(['Table des matières']);
    expect(groups.Hazards).toEqual(['Aucun risque']);
    // The publisher's summary and title are its own words, in the book's language.
    expect(groups['Accessibility Summary']).toEqual(['This publication has a table of contents.']);
    expect(product.title).toBe('Principles of Cell Biology');
    expect(product.languageCode).toBe('en');
  });

  it('says the same in English on an English page', async () => {
    const id = await englishBook();
    const product = await productPage(id, 'en');
    const en = inLocale('en');
    expect(product.breadcrumb.map((c) => c.title)).toEqual(['Science', 'Biology']);
    expect(product.ebookFeatures.map((f) => en(featureWording(f).name))).toEqual([
      'Offline Reading',
      'Lab Simulations',
    ]);
    expect(en(editionWording(product))).toBe('3rd Edition');
    expect(product.accessibility![0]!.items.map((i) => en(i.wording))).toEqual([
      'Appearance can be modified',
    ]);
  });
});

describe('migration 0012 (issue 13)', () => {
  it('turns an English numbered edition into its number and keeps other labels', async () => {
    const numbered = await insertProduct(database.db, { edition: '3rd Edition' });
    const revised = await insertProduct(database.db, { edition: 'Revised Edition' });
    const update = readFileSync('db/migrations/0012_french_wordings.sql', 'utf8')
      .split('--> statement-breakpoint')
      .map((statement) => statement.replace(/^--.*$/gm, '').trim())
      .find((statement) => statement.startsWith('UPDATE'))!;
    await database.db.execute(sql.raw(update));
    const edition = async (id: number) =>
      (
        await database.db
          .select({ edition: products.edition, editionNumber: products.editionNumber })
          .from(products)
          .where(eq(products.id, id))
      )[0];
    expect(await edition(numbered)).toEqual({ edition: null, editionNumber: 3 });
    expect(await edition(revised)).toEqual({ edition: 'Revised Edition', editionNumber: null });
  });
});
