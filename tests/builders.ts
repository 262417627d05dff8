import type { Queryable } from '#db/client.ts';
import { bookFiles, offerings, productIdentifiers, products } from '#db/schema/catalog.ts';

type ProductInsert = typeof products.$inferInsert;

let serial = 0;

/** Plain product data with overrides; unique slug per call. */
export function makeProduct(overrides: Partial<ProductInsert> = {}): ProductInsert {
  serial += 1;
  return {
    productType: 'book',
    title: `Test Title ${serial}`,
    slug: `test-title-${process.pid}-${Date.now().toString(36)}-${serial}`,
    description: 'A book used by a test.',
    authors: 'Test Author',
    publisher: 'Test Press',
    ...overrides,
  };
}

export async function insertProduct(
  db: Queryable,
  overrides: Partial<ProductInsert> = {},
  extra: {
    identifiers?: { type: string; value: string }[];
    priceCents?: number | null;
    /**
     * A reader file row (no bytes on disk): the shelf offers reading only what has one, and
     * a book without one is not sold digitally (issue 19). Books and ebundles have one unless
     * told otherwise, as a real catalog's do.
     */
    readerFile?: boolean;
  } = {},
): Promise<number> {
  const [row] = await db
    .insert(products)
    .values(makeProduct(overrides))
    .returning({ id: products.id });
  const id = row!.id;
  if (extra.identifiers?.length) {
    await db
      .insert(productIdentifiers)
      .values(extra.identifiers.map((i) => ({ productId: id, ...i })));
  }
  if (extra.priceCents !== null) {
    await db.insert(offerings).values({
      productId: id,
      type: 'digital',
      bookType: 'digital',
      priceCents: extra.priceCents ?? 2999,
      durationDays: 180,
    });
  }
  const readable = ['book', 'ebundle'].includes(overrides.productType ?? 'book');
  if (extra.readerFile ?? readable) {
    await db.insert(bookFiles).values({
      productId: id,
      title: 'Reader',
      extension: 'epub',
      type: 'READER',
      mediaType: 'application/epub+zip',
      storagePath: `test/${id}.epub`,
      byteSize: 1,
      sha256: '0'.repeat(64),
    });
  }
  return id;
}

/** A random valid-looking 13-digit value that no other test uses (not a checked ISBN). */
export function uniqueDigits(length = 13): string {
  let digits = `${Date.now()}${process.pid}${Math.floor(Math.random() * 1e9)}`;
  while (digits.length < length) digits += Math.floor(Math.random() * 10);
  return digits.slice(-length);
}
