// What the demo student owns and can redeem: real EPUB and PDF files on disk, ownerships, one
// paid order, courseware access codes and the demo redeem code.
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { bisacTree } from '#db/reference/bisac.ts';
import { accessCodes, redeemCodes } from '#db/schema/access.ts';
import { bookFiles, offerings, products } from '#db/schema/catalog.ts';
import {
  orderItems,
  orders,
  orderTransitions,
  payments,
  testGatewayPayments,
} from '#db/schema/commerce.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { redeemCodeDigest } from '#domain/access/redeem.ts';
import { DEMO_REDEEM_CODE, type DemoUsers } from './accounts.ts';
import { FIXTURE_INDEX, type FixtureName, planOf } from './catalog.ts';
import { wrapText } from './content/cover-svg.ts';
import { buildEpub } from './content/epub.ts';
import { buildPdf, PDF_CHARS_PER_LINE, PDF_LINES_PER_PAGE } from './content/pdf.ts';
import { createRandom, type Random } from './content/random.ts';
import { makeDescription, makeTitle } from './content/words.ts';
import type { DemoSections } from './courses.ts';

const DAY_MS = 86_400_000;
const ACCESS_CODE_POOL = 25;
const COURSEWARE_REDEEM_URL = 'https://courseware.example.com/redeem';

type FileSpec = {
  product: FixtureName;
  format: 'epub' | 'pdf';
  type: 'READER' | 'DOC';
  /** Title of a supplementary document; the book itself takes the product title. */
  title?: string;
  suffix?: string;
};

// A handful of real files: enough to read an EPUB and a PDF and download a supplement.
const FILES: readonly FileSpec[] = [
  { product: 'studentEpub', format: 'epub', type: 'READER' },
  {
    product: 'studentEpub',
    format: 'pdf',
    type: 'DOC',
    title: 'Study Guide',
    suffix: 'study-guide',
  },
  { product: 'studentPdf', format: 'pdf', type: 'READER' },
  { product: 'studentFreeEpub', format: 'epub', type: 'READER' },
  { product: 'redeemBook', format: 'epub', type: 'READER' },
];

type ProductFacts = {
  id: number;
  title: string;
  authors: string;
  publisher: string;
  description: string;
  isbnText: string;
};

function chapters(r: Random, subject: string, count: number) {
  return Array.from({ length: count }, (_, i) => ({
    title: `Chapter ${i + 1}: ${makeTitle(r, subject)}`,
    paragraphs: Array.from({ length: r.int(3, 5) }, () =>
      makeDescription(r, subject, r.int(50, 110)),
    ),
  }));
}

function bookPdf(facts: ProductFacts, heading: string, r: Random, subject: string): Buffer {
  const lines: string[] = [heading, `by ${facts.authors || facts.publisher}`, ''];
  for (const chapter of chapters(r, subject, 3)) {
    lines.push(...wrapText(chapter.title, PDF_CHARS_PER_LINE), '');
    for (const paragraph of chapter.paragraphs) {
      lines.push(...wrapText(paragraph, PDF_CHARS_PER_LINE), '');
    }
  }
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += PDF_LINES_PER_PAGE) {
    pages.push(lines.slice(i, i + PDF_LINES_PER_PAGE));
  }
  return buildPdf({ title: heading, author: facts.authors || facts.publisher, pages });
}

async function writeBookFiles(
  db: Queryable,
  dataDir: string,
  id: (name: FixtureName) => number,
): Promise<number> {
  const ids = [...new Set(FILES.map((f) => id(f.product)))];
  const facts = await db
    .select({
      id: products.id,
      title: products.title,
      authors: products.authors,
      publisher: products.publisher,
      description: products.description,
      isbnText: products.isbnText,
    })
    .from(products)
    .where(inArray(products.id, ids));
  const byId = new Map(facts.map((f) => [f.id, f]));
  mkdirSync(path.join(dataDir, 'files'), { recursive: true });

  const rows: (typeof bookFiles.$inferInsert)[] = [];
  FILES.forEach((file, n) => {
    const productId = id(file.product);
    const product = byId.get(productId)!;
    const subject = bisacTree[planOf(FIXTURE_INDEX[file.product]).subject]!.slug;
    const r = createRandom(0x5eed_0100 + n);
    const title = file.title ? `${product.title}: ${file.title}` : product.title;
    const data =
      file.format === 'epub'
        ? buildEpub({
            title,
            author: product.authors || product.publisher,
            language: 'en',
            identifier: product.isbnText || `urn:shelfmark:product:${productId}`,
            publisher: product.publisher,
            description: product.description,
            chapters: chapters(r, subject, 4),
          })
        : bookPdf(product, title, r, subject);
    const storagePath = `files/book-${productId}${file.suffix ? `-${file.suffix}` : ''}.${file.format}`;
    writeFileSync(path.join(dataDir, storagePath), data);
    rows.push({
      productId,
      title,
      extension: file.format,
      type: file.type,
      mediaType: file.format === 'epub' ? 'application/epub+zip' : 'application/pdf',
      storagePath,
      byteSize: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    });
  });
  await db.insert(bookFiles).values(rows);
  return rows.length;
}

// Every other e-book of the demo catalog is sold, so each needs a file to read (issue 19:
// nothing that cannot be delivered is sellable). Writing one EPUB or PDF per product would
// add seconds to every fresh start; instead one sample text per subject and format is
// written, and each e-book's reader file row points at its subject's sample, under its own
// title. Past the first products (a benchmark's million) books keep no file, and so are not
// sold digitally.
export const SAMPLE_FILE_PRODUCTS = 20_000;

async function writeSampleReaderFiles(
  db: Queryable,
  dataDir: string,
  baseId: number,
  productCount: number,
): Promise<number> {
  const fixtureIds = new Set(FILES.map((f) => FIXTURE_INDEX[f.product]));
  const wanted: { index: number; subject: number; format: 'epub' | 'pdf' }[] = [];
  for (let index = 1; index <= Math.min(productCount, SAMPLE_FILE_PRODUCTS); index++) {
    const plan = planOf(index);
    if (fixtureIds.has(index) || plan.fileType === null) continue;
    if (plan.type !== 'book' && plan.type !== 'ebundle') continue;
    wanted.push({ index, subject: plan.subject, format: plan.fileType === 'PDF' ? 'pdf' : 'epub' });
  }
  if (wanted.length === 0) return 0;
  mkdirSync(path.join(dataDir, 'files', 'samples'), { recursive: true });
  const samples = new Map<string, { storagePath: string; byteSize: number; sha256: string }>();
  const sampleOf = (subject: number, format: 'epub' | 'pdf') => {
    const key = `${subject}.${format}`;
    const known = samples.get(key);
    if (known) return known;
    const node = bisacTree[subject]!;
    const r = createRandom(0x5eed_0200 + subject * 2 + (format === 'pdf' ? 1 : 0));
    const title = `${node.title}: a sample text`;
    const facts = {
      id: 0,
      title,
      authors: 'Shelfmark',
      publisher: 'Shelfmark',
      description: `A sample text about ${node.title}.`,
      isbnText: '',
    };
    const data =
      format === 'epub'
        ? buildEpub({
            title,
            author: 'Shelfmark',
            language: 'en',
            identifier: `urn:shelfmark:sample:${node.slug}`,
            publisher: 'Shelfmark',
            description: facts.description,
            chapters: chapters(r, node.slug, 4),
          })
        : bookPdf(facts, title, r, node.slug);
    const storagePath = `files/samples/${node.slug}.${format}`;
    writeFileSync(path.join(dataDir, storagePath), data);
    const made = {
      storagePath,
      byteSize: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    };
    samples.set(key, made);
    return made;
  };
  const titles = new Map(
    (
      await db
        .select({ id: products.id, title: products.title })
        .from(products)
        .where(
          inArray(
            products.id,
            wanted.map((w) => baseId + w.index),
          ),
        )
    ).map((row) => [row.id, row.title]),
  );
  const rows: (typeof bookFiles.$inferInsert)[] = wanted.flatMap((w) => {
    const productId = baseId + w.index;
    const title = titles.get(productId);
    if (title === undefined) return [];
    return [
      {
        productId,
        title,
        extension: w.format,
        type: 'READER',
        mediaType: w.format === 'epub' ? 'application/epub+zip' : 'application/pdf',
        ...sampleOf(w.subject, w.format),
      },
    ];
  });
  for (let i = 0; i < rows.length; i += 1000) {
    await db.insert(bookFiles).values(rows.slice(i, i + 1000));
  }
  return rows.length;
}

function accessCode(r: Random): string {
  // No 0/O or 1/I: codes are read off a screen and typed.
  const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const group = () => Array.from({ length: 4 }, () => r.pick([...alphabet])).join('');
  return `${group()}-${group()}-${group()}`;
}

export async function seedShelf(
  db: Queryable,
  ctx: {
    dataDir: string;
    now: Date;
    baseId: number;
    productCount: number;
    people: DemoUsers;
    sections: DemoSections;
    accessCodeKey: string;
  },
): Promise<{ bookFiles: number }> {
  const { now, people, sections } = ctx;
  const id = (name: FixtureName): number => ctx.baseId + FIXTURE_INDEX[name];
  const at = (days: number): Date => new Date(now.getTime() + days * DAY_MS);
  const fileCount =
    (await writeBookFiles(db, ctx.dataDir, id)) +
    (await writeSampleReaderFiles(db, ctx.dataDir, ctx.baseId, ctx.productCount));

  // One paid order: the PDF book, the courseware and the classroom.
  const bought: FixtureName[] = ['studentPdf', 'studentCourseware', 'studentClassroom'];
  const offers = await db
    .select({
      id: offerings.id,
      productId: offerings.productId,
      priceCents: offerings.priceCents,
      durationDays: offerings.durationDays,
    })
    .from(offerings)
    .where(
      and(
        inArray(
          offerings.productId,
          bought.map((name) => id(name)),
        ),
        eq(offerings.isActive, true),
        eq(offerings.type, 'digital'),
      ),
    )
    .orderBy(offerings.id);
  const chosen = bought.map((name) => {
    const mine = offers.filter((o) => o.productId === id(name));
    // Prefer the one-year access where there is one, like most students buy.
    const offer = mine.find((o) => o.durationDays === 365) ?? mine[0];
    if (!offer) throw new Error(`Demo fixture ${name} has no digital offering`);
    return { name, offer };
  });
  const paidAt = at(-20);
  const subtotal = chosen.reduce((sum, c) => sum + c.offer.priceCents, 0);
  // Fixed ids: the same options give the same data, uuids included.
  const orderId = '5e1f0000-0000-4000-8000-000000000001';
  await db.insert(orders).values({
    id: orderId,
    userId: people.student,
    status: 'paid',
    idempotencyKey: 'demo-seed-order-1',
    subtotalCents: subtotal,
    feeCents: 0,
    totalCents: subtotal,
    createdAt: paidAt,
    paidAt,
  });
  await db.insert(orderItems).values(
    chosen.map((c) => ({
      orderId,
      productId: c.offer.productId,
      offeringId: c.offer.id,
      priceCents: c.offer.priceCents,
      isDigital: true,
      isPrint: false,
    })),
  );
  await db.insert(orderTransitions).values([
    { orderId, fromStatus: null, toStatus: 'pending', at: paidAt },
    { orderId, fromStatus: 'pending', toStatus: 'paid', reason: 'payment succeeded', at: paidAt },
  ]);
  await db.insert(payments).values({
    id: '5e1f0000-0000-4000-8000-000000000101',
    orderId,
    gateway: 'test',
    gatewayRef: 'demo-seed-payment-1',
    status: 'succeeded',
    amountCents: subtotal,
    // The test card, as its order page and mail show it (issue 19).
    cardBrand: 'visa',
    cardLast4: '4242',
    createdAt: paidAt,
  });
  // The same charge at the test gateway, as a provider keeps it: support can refund its lines
  // (issue 39).
  await db.insert(testGatewayPayments).values({
    ref: 'demo-seed-payment-1',
    idempotencyKey: 'demo-seed-payment-1',
    orderId,
    amountCents: subtotal,
    status: 'succeeded',
    cardBrand: 'visa',
    cardLast4: '4242',
    createdAt: paidAt,
  });

  const bio = sections.bio001;
  await db.insert(ownerships).values([
    // Through the inclusive-access section, for the length of the term.
    {
      userId: people.student,
      productId: id('studentEpub'),
      source: 'inclusive_access',
      courseSectionId: bio.id,
      startsAt: new Date(`${bio.startDate}T00:00:00Z`),
      expiresAt: new Date(new Date(`${bio.endDate}T00:00:00Z`).getTime() + DAY_MS),
      createdAt: new Date(`${bio.startDate}T00:00:00Z`),
    },
    {
      userId: people.student,
      productId: id('studentFreeEpub'),
      source: 'free',
      startsAt: at(-12),
      createdAt: at(-12),
    },
    ...chosen.map((c) => ({
      userId: people.student,
      productId: c.offer.productId,
      source: 'purchase',
      orderId,
      startsAt: paidAt,
      expiresAt: c.offer.durationDays === null ? null : at(-20 + c.offer.durationDays),
      createdAt: paidAt,
      // The classroom waits for its section code (spec 1 §4, Classroom redeem prompt).
      isSectionCodeConfirmed: false,
    })),
  ]);

  // Courseware access codes: the student's, then a pool per courseware product.
  const r = createRandom(0x5eed_0003);
  const codes: (typeof accessCodes.$inferInsert)[] = [
    {
      productId: id('studentCourseware'),
      code: accessCode(r),
      accessCodeUrl: COURSEWARE_REDEEM_URL,
      assignedUserId: people.student,
      orderId,
      assignedAt: paidAt,
    },
  ];
  for (const name of ['studentCourseware', 'poolCourseware', 'ltiCourseware'] as const) {
    for (let i = 0; i < ACCESS_CODE_POOL; i++) {
      codes.push({
        productId: id(name),
        code: accessCode(r),
        accessCodeUrl: COURSEWARE_REDEEM_URL,
      });
    }
  }
  await db.insert(accessCodes).values(codes);

  await db.insert(redeemCodes).values({
    productId: id('redeemBook'),
    codeDigest: redeemCodeDigest(ctx.accessCodeKey, DEMO_REDEEM_CODE),
    codeLast4: DEMO_REDEEM_CODE.slice(-4),
    durationDays: 365,
    expiresAt: at(180),
    createdAt: at(-30),
  });

  return { bookFiles: fileCount };
}
