// A shop's history written through the services the store uses (issue 40, backups): buyers
// who order and pay for a book (order, payment, ownership), open it and leave a reading
// position in it; then everything read back, to be found again in a restored backup.
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { bookFiles, offerings } from '#db/schema/catalog.ts';
import { orders } from '#db/schema/commerce.ts';
import { readingPositions } from '#db/schema/reading.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { buildEpub } from '#db/seed/content/epub.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import { savePosition } from '#domain/reading/positions.ts';
import { openReader } from '#domain/reading/service.ts';
import { insertProduct } from './builders.ts';
import { testContext, unique } from './database.ts';

export type ShopHistory = {
  userIds: number[];
  orders: { id: string; userId: number; status: string; totalCents: number }[];
  ownerships: { userId: number; productId: number; orderId: string | null }[];
  positions: { userId: number; productId: number; part: number; progression: number }[];
  files: { storagePath: string; sha256: string }[];
};

const NO_COURSE = { courseMemberId: null };

/**
 * `buyers` people each buy a book of their own (a real EPUB in `store`), pay for it with the
 * test card, and read it to a place of their own.
 */
export async function writeShopHistory(
  db: Queryable,
  store: BookFileStore,
  buyers: number,
): Promise<ShopHistory> {
  const gateway = new TestGateway(db);
  const history: ShopHistory = {
    userIds: [],
    orders: [],
    ownerships: [],
    positions: [],
    files: [],
  };
  const scratch = mkdtempSync(path.join(tmpdir(), 'shelfmark-backup-book-'));
  try {
    for (let n = 0; n < buyers; n += 1) {
      const productId = await insertProduct(
        db,
        { title: unique('Backed-up book') },
        { readerFile: false },
      );
      const epub = buildEpub({
        title: `Backed-up book ${n}`,
        author: 'A',
        language: 'en',
        identifier: `urn:backup:${productId}`,
        chapters: [1, 2, 3].map((c) => ({
          title: `Chapter ${c}`,
          paragraphs: [`Paragraph of chapter ${c} of book ${productId}. `.repeat(20)],
        })),
      });
      const sha256 = createHash('sha256').update(epub).digest('hex');
      const storagePath = `files/catalog/${productId}-${sha256.slice(0, 16)}.epub`;
      const local = path.join(scratch, `${productId}.epub`);
      writeFileSync(local, epub);
      await store.adopt(storagePath, local);
      await db.insert(bookFiles).values({
        productId,
        title: 'Reader',
        extension: 'epub',
        type: 'READER',
        mediaType: 'application/epub+zip',
        storagePath,
        byteSize: epub.length,
        sha256,
      });
      history.files.push({ storagePath, sha256 });

      const [row] = await db
        .insert(users)
        .values({ email: `${unique('backup-buyer')}@example.test`, firstName: 'B' })
        .returning({ id: users.id });
      const user = (await loadSessionUser(db, { userId: row!.id, impersonatorId: null }))!;
      history.userIds.push(user.id);
      const ctx = testContext(db, { user });
      const [offering] = await db
        .select({ id: offerings.id })
        .from(offerings)
        .where(eq(offerings.productId, productId));
      await putInCart(ctx, { userId: user.id }, { offeringId: offering!.id });
      const { orderId } = await placeOrder(ctx, { idempotencyKey: randomUUID() });
      const paid = await payOrder(ctx, gateway, {
        orderId,
        method: {
          kind: 'card',
          card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
        },
      });
      if (!paid.ok) throw new Error(`the test card was refused: ${JSON.stringify(paid)}`);
      const part = n % 3;
      const progression = ((n % 7) + 1) / 8;
      await savePosition(ctx, store, productId, { part, progression }, NO_COURSE);
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  const found = await readShopHistory(db, history.userIds);
  return { ...found, files: history.files };
}

/** The orders, ownerships and reading positions of these people, in a stable order. */
export async function readShopHistory(
  db: Queryable,
  userIds: number[],
): Promise<Omit<ShopHistory, 'files'>> {
  const byUser = <T extends { userId: number }>(rows: T[]) =>
    rows.sort((a, b) => a.userId - b.userId || JSON.stringify(a).localeCompare(JSON.stringify(b)));
  return {
    userIds,
    orders: byUser(
      await db
        .select({
          id: orders.id,
          userId: orders.userId,
          status: orders.status,
          totalCents: orders.totalCents,
        })
        .from(orders)
        .where(inArray(orders.userId, userIds)),
    ),
    ownerships: byUser(
      await db
        .select({
          userId: ownerships.userId,
          productId: ownerships.productId,
          orderId: ownerships.orderId,
        })
        .from(ownerships)
        .where(inArray(ownerships.userId, userIds)),
    ),
    positions: byUser(
      await db
        .select({
          userId: readingPositions.userId,
          productId: readingPositions.productId,
          part: readingPositions.part,
          progression: readingPositions.progression,
        })
        .from(readingPositions)
        .where(inArray(readingPositions.userId, userIds)),
    ),
  };
}

/**
 * Each buyer opens their book in the reader as the store would (ownership, book file and
 * position together): where they left off, for every one of them.
 */
export async function openedWhereLeft(
  db: Queryable,
  store: BookFileStore,
  history: ShopHistory,
): Promise<{ userId: number; productId: number; part: number; progression: number }[]> {
  const opened = [];
  for (const position of history.positions) {
    const user = (await loadSessionUser(db, { userId: position.userId, impersonatorId: null }))!;
    const view = await openReader(testContext(db, { user }), store, {
      productId: position.productId,
      via: NO_COURSE,
      courseSectionId: null,
      part: null,
      recordOpen: false,
    });
    opened.push({ userId: user.id, productId: position.productId, ...view.position });
  }
  return opened;
}
