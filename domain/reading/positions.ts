// Where each reader is in a book (issue 5): saved on the server, so that any device opens the
// book there, and a 'page' reading event for the section's analytics.
import { lte } from 'drizzle-orm';
import { readingEvents, readingPositions } from '#db/schema/reading.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid } from '#domain/shared/errors.ts';
import type { BookFileStore } from './file-store.ts';
import { fileMetrics } from './open-books.ts';
import { readerContext, userOf } from './reader-access.ts';
import type { ReadingVia } from './types.ts';

/** Saves where the reader is (any device picks it up on open) and records the page event. */
export async function savePosition(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  position: { part: number; progression: number; readAt?: Date },
  via: ReadingVia,
): Promise<void> {
  const { product, file } = await readerContext(ctx, productId, via);
  const metrics = await fileMetrics(ctx, store, file);
  if (position.part >= metrics.partLengths.length) throw new Invalid();
  const user = userOf(ctx);
  const progression = Math.min(1, Math.max(0, position.progression));
  // A place read offline is sent later with when it was read (never later than now): a place
  // saved since, from another device, is newer and stays.
  const readAt =
    position.readAt && position.readAt.getTime() < ctx.now.getTime() ? position.readAt : ctx.now;
  await ctx.db
    .insert(readingPositions)
    .values({
      userId: user.id,
      productId: product.id,
      part: position.part,
      progression,
      updatedAt: readAt,
    })
    .onConflictDoUpdate({
      target: [readingPositions.userId, readingPositions.productId],
      set: { part: position.part, progression, updatedAt: readAt },
      setWhere: lte(readingPositions.updatedAt, readAt),
    });
  await ctx.db.insert(readingEvents).values({
    userId: user.id,
    productId: product.id,
    kind: 'page',
    part: position.part,
    occurredAt: readAt,
  });
}
