// The demo catalogue as pure functions of a product's index (1..N): what kind of product it is
// (its plan) and its rows. Every product draws from its own PRNG stream, so any product can
// be rebuilt without generating the ones before it; that keeps a million-product seed in flat
// memory and lets collections pick items anywhere in the catalogue.

import { type BisacNode, bisacTree, flattenBisac } from '#db/reference/bisac.ts';
import type { PRODUCT_TYPES } from '#db/schema/catalog.ts';
import { isbn10CheckDigit, isbn13CheckDigit } from '#domain/catalog/isbn.ts';
import { slugify } from '#domain/catalog/product-route.ts';
import { shownIsbn } from '#domain/catalog/shown-isbn.ts';
import { createRandom, type Random } from './content/random.ts';
import {
  makeAuthorName,
  makeDescription,
  makePublisher,
  makeSubtitle,
  makeTitle,
} from './content/words.ts';
import {
  accessibilityFeatures,
  classroomFeatures,
  collectionFeatures,
  coursewareFeatures,
  ebookFeatures,
} from './features.ts';

export type ProductType = (typeof PRODUCT_TYPES)[number];
export type ProductStatus = 'active' | 'deactivated' | 'withdrawn' | 'deleted';

/**
 * How a book is sold. free: a digital offering at 0 cents; code_only: no offering at all
 * ('Code Only', spec 1 §4); print_only: a print book without an ebook.
 */
export type BookKind =
  | 'digital'
  | 'digital_physical'
  | 'digital_print'
  | 'combo'
  | 'free'
  | 'code_only'
  | 'print_only';

export type Plan = {
  index: number;
  type: ProductType;
  kind: BookKind | null;
  fileType: 'EPUB' | 'PDF' | null;
  status: ProductStatus;
  isDisabled: boolean;
  blockedCountries: string[];
  blockedHosts: string[];
  /** Index into bisacTree: the top-level subject, which drives titles and blurbs. */
  subject: number;
  /** Fixtures name their first BISAC code; others draw one inside their subject. */
  categoryCode: string | null;
  /** Fixtures that need a given number of physical units (race tests). */
  stock: number | null;
  /** Fixtures with a set number of items (collection, ebundle, classroom). */
  itemCount: number | null;
  certified: boolean;
};

// ---------------------------------------------------------------------------------------------
// Deterministic randomness

export const DEMO_SEED = 0x5e1f_2026;

const STREAM_PLAN = 1;
const STREAM_CONTENT = 2;
const STREAM_ITEMS = 3;
const STREAM_BLURBS = 4;

// murmur3's finaliser: neighbouring indices get unrelated PRNG seeds.
function fmix32(h: number): number {
  let x = h >>> 0;
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

/** An independent PRNG for one (stream, index) pair. */
export function randomFor(stream: number, index: number): Random {
  return createRandom(fmix32(DEMO_SEED ^ fmix32(index * 0x9e3779b1 + stream * 0x632be5ab)));
}

// ---------------------------------------------------------------------------------------------
// BISAC lookups

const FLAT = flattenBisac();
/** Codes of each top-level subject's subtree, the subject itself first. */
const SUBTREE_CODES: string[][] = bisacTree.map((top) => {
  const codes: string[] = [];
  const visit = (node: BisacNode): void => {
    codes.push(node.code);
    for (const child of node.children) visit(child);
  };
  visit(top);
  return codes;
});
const SUBJECT_OF_CODE = new Map<string, number>();
SUBTREE_CODES.forEach((codes, subject) => {
  for (const code of codes) SUBJECT_OF_CODE.set(code, subject);
});
const ALL_CODES = FLAT.map((f) => f.node.code);

function subjectOf(code: string): number {
  const subject = SUBJECT_OF_CODE.get(code);
  if (subject === undefined) throw new Error(`Fixture category ${code} is not in the BISAC tree`);
  return subject;
}

// ---------------------------------------------------------------------------------------------
// Fixtures: the products the demo accounts, courses and tests point at. They take the first
// indices, so their ids are known (base id + index) without querying.

type FixtureSpec = {
  type: ProductType;
  category: string;
  kind?: BookKind;
  fileType?: 'EPUB' | 'PDF';
  status?: ProductStatus;
  isDisabled?: boolean;
  blockedCountries?: string[];
  blockedHosts?: string[];
  stock?: number;
  items?: number;
  certified?: boolean;
};

const FIXTURE_SPECS = {
  // Owned by student@demo.test (shelf.ts).
  studentEpub: {
    type: 'book',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'SCI008000',
    certified: true,
  },
  studentPdf: { type: 'book', kind: 'digital', fileType: 'PDF', category: 'SCI013000' },
  studentFreeEpub: { type: 'book', kind: 'free', fileType: 'EPUB', category: 'FIC019000' },
  studentCourseware: { type: 'courseware', category: 'MAT005000' },
  studentClassroom: { type: 'classroom', category: 'COM051360', items: 3 },
  // The product behind the demo redeem code.
  redeemBook: { type: 'book', kind: 'digital', fileType: 'EPUB', category: 'PSY000000' },
  freeBook: { type: 'book', kind: 'free', fileType: 'EPUB', category: 'HIS000000' },
  freePdf: { type: 'book', kind: 'free', fileType: 'PDF', category: 'LAN000000' },
  codeOnly: { type: 'book', kind: 'code_only', fileType: 'EPUB', category: 'MED000000' },
  codeOnlyPdf: { type: 'book', kind: 'code_only', fileType: 'PDF', category: 'EDU000000' },
  // Physical stock of 1 and 5 units, for concurrent-checkout tests.
  stockOne: {
    type: 'book',
    kind: 'digital_physical',
    fileType: 'EPUB',
    category: 'BUS000000',
    stock: 1,
  },
  stockFive: {
    type: 'book',
    kind: 'digital_physical',
    fileType: 'PDF',
    category: 'POL000000',
    stock: 5,
  },
  combo: { type: 'book', kind: 'combo', fileType: 'EPUB', category: 'SOC000000' },
  printOnDemand: { type: 'book', kind: 'digital_print', fileType: 'EPUB', category: 'STU000000' },
  physicalProduct: { type: 'physical_product', category: 'SCI013000' },
  deactivated: {
    type: 'book',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'MAT000000',
    status: 'deactivated',
  },
  withdrawn: {
    type: 'book',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'HIS000000',
    status: 'withdrawn',
  },
  deleted: {
    type: 'book',
    kind: 'digital',
    fileType: 'PDF',
    category: 'SOC000000',
    status: 'deleted',
  },
  disabled: {
    type: 'book',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'PSY000000',
    isDisabled: true,
  },
  regionBlocked: {
    type: 'book',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'BUS000000',
    blockedCountries: ['CA'],
  },
  marketBlocked: {
    type: 'book',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'COM000000',
    blockedHosts: ['partner.localhost'],
  },
  bigCollection: { type: 'collection', category: 'FIC000000', items: 12 },
  emptyCollection: { type: 'collection', category: 'JUV000000', items: 0 },
  ebundle: { type: 'ebundle', kind: 'digital', fileType: 'EPUB', category: 'MED000000', items: 4 },
  emptyEbundle: {
    type: 'ebundle',
    kind: 'digital',
    fileType: 'EPUB',
    category: 'EDU000000',
    items: 0,
  },
  // Courseware with a pool of unassigned access codes; the first is LTI partner 0 in the
  // student's section, the second LTI partner 2.
  poolCourseware: { type: 'courseware', category: 'SCI055000' },
  ltiCourseware: { type: 'courseware', category: 'SCI013040' },
  // A physical/digital choice in the student's section: the ebook and its print version.
  choiceDigital: { type: 'book', kind: 'digital', fileType: 'EPUB', category: 'SCI086000' },
  choicePrint: { type: 'book', kind: 'print_only', category: 'SCI086000' },
} satisfies Record<string, FixtureSpec>;

export type FixtureName = keyof typeof FIXTURE_SPECS;

const FIXTURE_LIST = Object.entries(FIXTURE_SPECS) as [FixtureName, FixtureSpec][];
export const FIXTURE_COUNT = FIXTURE_LIST.length;

/** The index (1-based) of each fixture; its id is the base id plus this. */
export const FIXTURE_INDEX = Object.fromEntries(
  FIXTURE_LIST.map(([name], i) => [name, i + 1]),
) as Record<FixtureName, number>;

// ---------------------------------------------------------------------------------------------
// Plans

function fixturePlan(index: number, spec: FixtureSpec): Plan {
  return {
    index,
    type: spec.type,
    kind: spec.kind ?? null,
    fileType: spec.fileType ?? null,
    status: spec.status ?? 'active',
    isDisabled: spec.isDisabled ?? false,
    blockedCountries: spec.blockedCountries ?? [],
    blockedHosts: spec.blockedHosts ?? [],
    subject: subjectOf(spec.category),
    categoryCode: spec.category,
    stock: spec.stock ?? null,
    itemCount: spec.items ?? null,
    certified: spec.certified ?? false,
  };
}

const FIXTURE_PLANS: Plan[] = FIXTURE_LIST.map(([, spec], i) => fixturePlan(i + 1, spec));

function pickType(u: number): ProductType {
  // Mostly books, like a campus store.
  if (u < 0.8) return 'book';
  if (u < 0.85) return 'ebundle';
  if (u < 0.9) return 'courseware';
  if (u < 0.93) return 'collection';
  if (u < 0.96) return 'classroom';
  return 'physical_product';
}

function pickBookKind(u: number): BookKind {
  if (u < 0.58) return 'digital';
  if (u < 0.73) return 'digital_physical';
  if (u < 0.83) return 'digital_print';
  if (u < 0.9) return 'combo';
  if (u < 0.93) return 'free';
  if (u < 0.96) return 'code_only';
  return 'print_only';
}

/** What product `index` is, cheaply: a few PRNG draws, no text. */
export function planOf(index: number): Plan {
  const fixture = FIXTURE_PLANS[index - 1];
  if (fixture) return fixture;
  const r = randomFor(STREAM_PLAN, index);
  const type = pickType(r.next());
  const kindDraw = r.next();
  const kind: BookKind | null =
    type === 'book' ? pickBookKind(kindDraw) : type === 'ebundle' ? 'digital' : null;
  const epub = r.chance(0.65);
  const fileType =
    type === 'ebundle'
      ? 'EPUB'
      : type === 'book' && kind !== 'print_only'
        ? epub
          ? 'EPUB'
          : 'PDF'
        : null;
  const s = r.next();
  const status: ProductStatus =
    s < 0.01 ? 'deactivated' : s < 0.017 ? 'withdrawn' : s < 0.025 ? 'deleted' : 'active';
  const isDisabled = r.chance(0.01);
  const blockedCountries = r.chance(0.015) ? (r.chance(0.5) ? ['CA'] : ['CA', 'GB']) : [];
  const blockedHosts = r.chance(0.01)
    ? [r.chance(0.5) ? 'partner.localhost' : 'bookstore.localhost']
    : [];
  return {
    index,
    type,
    kind,
    fileType,
    status,
    isDisabled,
    blockedCountries,
    blockedHosts,
    subject: r.int(0, bisacTree.length - 1),
    categoryCode: null,
    stock: null,
    itemCount: null,
    certified: r.chance(0.12),
  };
}

/** Sellable everywhere: what a collection, a course or a shelf may point at. */
export function isPlainlySellable(plan: Plan): boolean {
  return (
    plan.status === 'active' &&
    !plan.isDisabled &&
    plan.blockedCountries.length === 0 &&
    plan.blockedHosts.length === 0
  );
}

// ---------------------------------------------------------------------------------------------
// Identifiers

// A bijection on 0..10^9-1 (the multiplier is coprime with 10), so distinct inputs give distinct
// 9-digit ISBN bodies that do not look sequential.
function isbnBody(n: number): string {
  const value = (n * 387_420_489 + 135_792_468) % 1_000_000_000;
  return String(value).padStart(9, '0');
}

const ISBN_VARIANT = { print: 0, ebook: 1, pcard: 2, container: 3 } as const;

function isbnPair(id: number, variant: number, prefix = '978') {
  const body = isbnBody(id * 4 + variant);
  const twelve = `${prefix}${body}`;
  return { isbn13: twelve + isbn13CheckDigit(twelve), isbn10: body + isbn10CheckDigit(body) };
}

// ---------------------------------------------------------------------------------------------
// Rows

export type CatalogContext = {
  /** Product id = baseId + index. */
  baseId: number;
  now: Date;
  categoryIds: ReadonlyMap<string, number>;
};

export type BuiltProduct = {
  product: Record<string, unknown>;
  identifiers: Record<string, unknown>[];
  categories: Record<string, unknown>[];
  offerings: Record<string, unknown>[];
  /** Feature template numbers (features.ts), in display order. */
  features: number[];
};

const DAY_MS = 86_400_000;

const PHYSICAL_GOODS = [
  'Scientific Calculator',
  'Graphing Calculator',
  'Lab Safety Goggles',
  'Bound Lab Notebook',
  'Molecular Model Kit',
  'Dissection Kit',
  'Anatomy Flash Cards',
  'Graph Paper Pad',
  'Drawing Compass Set',
  'Periodic Table Desk Reference',
  'Spiral Course Reader',
  'Lab Coat',
  'Stethoscope',
  'Engineering Scale Ruler',
  'USB Flash Drive',
];
const PHYSICAL_ADJECTIVES = ['Standard', 'Student', 'Deluxe', 'Compact', 'Classroom', 'Pro'];
const SCHOOLS = [
  'Northfield State University',
  'Lakeshore Community College',
  'Riverbend University',
  'Harbor College',
];

/** Prices end in .99, like a shop's. */
const ninetyNine = (cents: number): number => Math.max(99, Math.round(cents / 100) * 100 - 1);

const DURATION_TEXT = new Map<
  number | null,
  { description: string; terms: string; factor: number }
>([
  [
    180,
    {
      description: '180-day access',
      terms: 'Access for 180 days from the date of purchase.',
      factor: 0.55,
    },
  ],
  [
    365,
    {
      description: '365-day access',
      terms: 'Access for 365 days from the date of purchase.',
      factor: 0.75,
    },
  ],
  [null, { description: 'Lifetime access', terms: 'Access does not expire.', factor: 1 }],
]);
const DURATION_SETS: readonly (readonly (number | null)[])[] = [
  [180, 365, null],
  [365, null],
  [null],
  [180, 365],
  [180, null],
];

function digitalOfferings(
  productId: number,
  base: number,
  durations: readonly (number | null)[],
  r: Random,
): Record<string, unknown>[] {
  const rows = durations.map((duration) => {
    const text = DURATION_TEXT.get(duration)!;
    return {
      product_id: productId,
      type: 'digital',
      book_type: 'digital',
      price_cents: ninetyNine(base * text.factor),
      description: text.description,
      terms: text.terms,
      duration_days: duration,
      is_rental: false,
      is_active: true,
    };
  });
  // Now and then a retired duration stays on file, inactive, as real catalogues keep them.
  const last = rows[rows.length - 1];
  if (rows.length > 1 && last && r.chance(0.03)) last.is_active = false;
  return rows;
}

function bookOfferings(plan: Plan, productId: number, r: Random): Record<string, unknown>[] {
  const base = r.int(1999, 18999);
  const kind = plan.kind ?? 'digital';
  if (kind === 'code_only') return [];
  if (kind === 'free') {
    return [
      {
        product_id: productId,
        type: 'digital',
        book_type: 'digital',
        price_cents: 0,
        description: 'Free',
        terms: 'Free to read. Access does not expire.',
        duration_days: null,
        is_rental: false,
        is_active: true,
      },
    ];
  }
  const out: Record<string, unknown>[] = [];
  if (kind !== 'print_only')
    out.push(...digitalOfferings(productId, base, r.pick(DURATION_SETS), r));
  const physicalPrice = ninetyNine(base * 1.25 + 1000);
  if (kind === 'digital_physical' || kind === 'combo' || kind === 'print_only') {
    const rental = plan.stock === null && r.chance(0.2);
    out.push({
      product_id: productId,
      type: 'physical',
      book_type: 'print',
      price_cents: rental ? ninetyNine(physicalPrice * 0.6) : physicalPrice,
      description: rental ? 'Print rental' : 'New print copy',
      terms: rental
        ? 'Return due 7 days after the add/drop date.'
        : 'Ships in 3 - 5 business days.',
      duration_days: null,
      is_rental: rental,
      is_active: true,
      stock: plan.stock ?? (r.chance(0.08) ? 0 : r.int(2, 60)),
    });
  }
  if (kind === 'digital_print' || (kind === 'print_only' && r.chance(0.3))) {
    out.push({
      product_id: productId,
      type: 'print',
      book_type: 'print',
      price_cents: ninetyNine(base * 0.45 + 1500),
      description: 'Print on demand',
      terms:
        'Printed on demand and shipped in 7 - 10 business days. Printed course materials are non-refundable.',
      duration_days: null,
      is_rental: false,
      is_active: true,
    });
  }
  if (kind === 'combo') {
    // price_cents is the ebook alone; combo_price_cents the ebook with a print copy.
    out.push({
      product_id: productId,
      type: 'combo',
      book_type: 'combo',
      price_cents: ninetyNine(base),
      combo_price_cents: ninetyNine(base + physicalPrice * 0.5),
      description: 'eBook + print copy',
      terms: 'Lifetime ebook access; the print copy ships in 3 - 5 business days.',
      duration_days: null,
      is_rental: false,
      is_active: true,
    });
  }
  return out;
}

function otherOfferings(plan: Plan, productId: number, r: Random): Record<string, unknown>[] {
  switch (plan.type) {
    case 'courseware':
      return digitalOfferings(productId, r.int(4999, 14999), r.pick([[180], [365], [180, 365]]), r);
    case 'classroom':
      return digitalOfferings(productId, r.int(2999, 8999), [r.pick([180, 365])], r);
    case 'collection':
      return digitalOfferings(productId, r.int(1999, 5999), [180, 365], r);
    case 'physical_product':
      return [
        {
          product_id: productId,
          type: 'physical_product',
          book_type: 'print',
          price_cents: ninetyNine(r.int(499, 8999)),
          description: 'New',
          terms: 'Ships in 3 - 5 business days.',
          duration_days: null,
          is_rental: false,
          is_active: true,
          stock: plan.stock ?? r.int(0, 250),
        },
      ];
    default:
      return bookOfferings(plan, productId, r);
  }
}

function identifiersFor(plan: Plan, id: number, r: Random): { type: string; value: string }[] {
  const out: { type: string; value: string }[] = [];
  const print = isbnPair(id, ISBN_VARIANT.print);
  const ebook = isbnPair(id, ISBN_VARIANT.ebook);
  switch (plan.type) {
    case 'book': {
      const kind = plan.kind ?? 'digital';
      const hasPrint = kind !== 'digital' && kind !== 'free' && kind !== 'code_only';
      if (kind !== 'print_only') {
        // A few ebooks carry only an ISBN-10, so the shown-ISBN order is exercised.
        if (r.chance(0.93)) out.push({ type: 'EISBN13', value: ebook.isbn13 });
        if (r.chance(0.5) || out.length === 0) out.push({ type: 'EISBN10', value: ebook.isbn10 });
      }
      if (hasPrint) {
        out.push({ type: 'ISBN13', value: print.isbn13 });
        if (r.chance(0.5)) out.push({ type: 'ISBN10', value: print.isbn10 });
      }
      return out;
    }
    case 'ebundle':
      return [{ type: 'EISBN13', value: ebook.isbn13 }];
    case 'courseware': {
      const card = isbnPair(id, ISBN_VARIANT.pcard);
      return [
        { type: 'PCARD_13', value: card.isbn13 },
        { type: 'PCARD_10', value: card.isbn10 },
      ];
    }
    case 'classroom':
      return [
        { type: 'CLASSROOM_ISBN', value: isbnPair(id, ISBN_VARIANT.container, '979').isbn13 },
      ];
    case 'collection':
      return [
        { type: 'COLLECTION_ISBN', value: isbnPair(id, ISBN_VARIANT.container, '979').isbn13 },
      ];
    default:
      return out;
  }
}

function titleFor(plan: Plan, r: Random, subject: string): string {
  switch (plan.type) {
    case 'ebundle':
      return `${makeTitle(r, subject)} eBundle`;
    case 'courseware':
      return `${makeTitle(r, subject)} Online Courseware`;
    case 'collection':
      return `${makeTitle(r, subject)} Collection`;
    case 'classroom':
      return `${makeTitle(r, subject)} Classroom`;
    case 'physical_product':
      return `${r.pick(PHYSICAL_ADJECTIVES)} ${r.pick(PHYSICAL_GOODS)}`;
    default:
      return makeTitle(r, subject);
  }
}

const pick = <T>(r: Random, items: readonly T[]): T => r.pick(items);

// Past the first products, blurbs come from a small pool per subject: composing each one is
// most of the generation time of a million-product benchmark catalogue, and shorter ones keep
// the database's full-text work down. The first products, which people browse, stay unique.
const DETAILED_PRODUCTS = 20_000;
const BLURB_POOL_SIZE = 256;
const blurbPools = new Map<number, string[]>();

function pooledDescription(subject: number, slot: number): string {
  let pool = blurbPools.get(subject);
  if (!pool) {
    const r = randomFor(STREAM_BLURBS, subject);
    const slug = bisacTree[subject]!.slug;
    pool = Array.from({ length: BLURB_POOL_SIZE }, () => makeDescription(r, slug, r.int(35, 90)));
    blurbPools.set(subject, pool);
  }
  return pool[slot]!;
}

export function buildProduct(plan: Plan, ctx: CatalogContext): BuiltProduct {
  const r = randomFor(STREAM_CONTENT, plan.index);
  const id = ctx.baseId + plan.index;
  const top = bisacTree[plan.subject]!;
  const subject = top.slug;
  const isText = plan.type === 'book' || plan.type === 'ebundle';

  const title = titleFor(plan, r, subject);
  const subtitle = isText && r.chance(0.6) ? makeSubtitle(r, subject) : null;
  const authorCount = plan.type === 'physical_product' ? 0 : r.chance(0.7) ? 1 : r.int(2, 3);
  const authors = Array.from({ length: authorCount }, () => makeAuthorName(r)).join(', ');
  const publisher = makePublisher(r);
  const description =
    plan.index <= DETAILED_PRODUCTS
      ? makeDescription(r, subject, r.int(40, 180))
      : pooledDescription(plan.subject, r.int(0, BLURB_POOL_SIZE - 1));
  const year = ctx.now.getUTCFullYear();

  const identifiers = identifiersFor(plan, id, r);
  const offerings = otherOfferings(plan, id, r);

  const hasFile = plan.fileType !== null;
  const textToSpeech = plan.fileType === 'EPUB' && (plan.certified || r.chance(0.45));
  const drmOffline = hasFile ? pick(r, [0, 0, 12.5, 25, 50, 100]) : null;
  const drmCopy = hasFile ? pick(r, [0, 5, 10, 12.5, 20]) : null;
  const drmPrint = hasFile ? pick(r, [0, 0, 10, 12.5, 25, 50]) : null;

  const primary =
    plan.categoryCode ??
    (() => {
      const codes = SUBTREE_CODES[plan.subject]!;
      return codes.length > 1 && r.chance(0.85) ? r.pick(codes.slice(1)) : codes[0]!;
    })();
  const categoryCodes = [primary];
  if (r.chance(0.25)) {
    const second = r.pick(ALL_CODES);
    if (second !== primary) categoryCodes.push(second);
  }

  const features: number[] = [];
  if (hasFile) {
    features.push(...ebookFeatures(r, { textToSpeech, printing: (drmPrint ?? 0) > 0 }));
    if (plan.fileType === 'EPUB') {
      features.push(...accessibilityFeatures(r, { textToSpeech, certified: plan.certified }));
    }
  } else if (plan.type === 'classroom') features.push(...classroomFeatures(r));
  else if (plan.type === 'collection') features.push(...collectionFeatures());
  else if (plan.type === 'courseware') features.push(...coursewareFeatures(r));

  // Skewed counters: a few best sellers, a long tail near zero (Best Sellers / Campus
  // Favorites trays need an order, spec 1 §2).
  const sales = plan.status === 'active' ? Math.floor(25_000 * r.next() ** 6) : 0;
  const adoptable = plan.type === 'book' || plan.type === 'courseware' || plan.type === 'classroom';
  const adoptions = adoptable ? Math.floor(600 * r.next() ** 7) : 0;
  const createdAt = new Date(ctx.now.getTime() - r.int(1, 2000) * DAY_MS).toISOString();
  const isCourseware = plan.type === 'courseware';
  const printTitle = (drmPrint ?? 0) > 0 ? `Print up to ${drmPrint}% of this book` : null;

  const product: Record<string, unknown> = {
    id,
    product_type: plan.type,
    title,
    subtitle,
    slug: slugify(title),
    description,
    authors,
    imprint: r.chance(0.25) ? `${publisher} Digital` : null,
    publisher,
    // A numbered edition: pages say it in their language (issue 13).
    edition: null,
    edition_number: isText ? (r.chance(0.5) ? r.int(1, 12) : null) : null,
    language_code: 'en',
    num_pages: isText ? r.int(96, 1280) : null,
    publish_year: plan.type === 'physical_product' ? null : year - r.int(0, 14),
    course_title:
      isCourseware || plan.type === 'classroom' ? `${top.title} ${r.int(100, 399)}` : null,
    school_title: isCourseware || plan.type === 'classroom' ? r.pick(SCHOOLS) : null,
    website_url: isCourseware ? `https://courseware.example.com/products/${id}` : null,
    supplier_item_id:
      plan.type === 'physical_product' || plan.kind === 'print_only'
        ? `SKU-${String(id).padStart(7, '0')}`
        : null,
    isbn_text: shownIsbn(identifiers) ?? '',
    product_file_type: plan.fileType,
    // Fixture courseware hands out access codes (the demo student holds one): never codeless.
    is_codeless: isCourseware && plan.index > FIXTURE_COUNT && r.chance(0.2),
    is_url_access_code: isCourseware && r.chance(0.3),
    show_redeem: isCourseware && r.chance(0.6),
    redemption_url: isCourseware ? 'https://courseware.example.com/redeem' : null,
    access_url: isCourseware ? `https://courseware.example.com/launch/${id}` : null,
    has_text_to_speech: textToSpeech,
    has_feature_printing: printTitle !== null,
    feature_printing_title: printTitle,
    status: plan.status,
    is_disabled: plan.isDisabled,
    blocked_countries: plan.blockedCountries,
    blocked_hosts: plan.blockedHosts,
    drm_offline_percent: drmOffline,
    drm_copy_percent: drmCopy,
    drm_print_percent: drmPrint,
    sales_count: sales,
    adoption_count: adoptions,
    created_at: createdAt,
    updated_at: createdAt,
  };

  return {
    product,
    identifiers: identifiers.map((i) => ({ product_id: id, type: i.type, value: i.value })),
    categories: categoryCodes.map((code, position) => ({
      product_id: id,
      category_id: ctx.categoryIds.get(code)!,
      position,
    })),
    offerings,
    features,
  };
}

// ---------------------------------------------------------------------------------------------
// Items of collections, ebundles and classrooms

function acceptsItem(container: ProductType, item: Plan): boolean {
  if (!isPlainlySellable(item)) return false;
  const ebook = item.type === 'book' && item.kind !== 'print_only' && item.kind !== 'code_only';
  if (container === 'collection') return ebook || item.type === 'ebundle';
  if (container === 'ebundle') return ebook;
  if (container === 'classroom') return ebook || item.type === 'courseware';
  return false;
}

const FIXTURE_ITEM_WINDOW = 400;
const ITEM_WINDOW = 3000;

/** Item indices of a container product, in display order; [] for other types. */
export function itemsOf(plan: Plan, productCount: number): number[] {
  const { type } = plan;
  if (type !== 'collection' && type !== 'ebundle' && type !== 'classroom') return [];
  const r = randomFor(STREAM_ITEMS, plan.index);
  const wanted =
    plan.itemCount ??
    (type === 'collection' ? r.int(3, 15) : type === 'ebundle' ? r.int(2, 5) : r.int(2, 6));
  // Fixtures draw from the first products so they fill up even in a small catalogue.
  const fixture = plan.index <= FIXTURE_COUNT;
  const lo = fixture ? 1 : Math.max(1, plan.index - ITEM_WINDOW);
  const hi = Math.min(productCount, fixture ? FIXTURE_ITEM_WINDOW : plan.index + ITEM_WINDOW);
  const chosen: number[] = [];
  for (let tries = 0; chosen.length < wanted && tries < wanted * 30; tries++) {
    const j = r.int(lo, hi);
    if (j === plan.index || chosen.includes(j)) continue;
    if (acceptsItem(type, planOf(j))) chosen.push(j);
  }
  return chosen;
}
