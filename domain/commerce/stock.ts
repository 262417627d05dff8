import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings } from '#db/schema/catalog.ts';

/**
 * Takes `quantity` units of a physical offering's stock, in the caller's transaction; false
 * when fewer remain. One conditional UPDATE, so that shoppers racing for the last units can
 * never both get one: reading the stock and then writing it back oversells (issue 4).
 */
export async function takeStock(
  db: Queryable,
  offeringId: number,
  quantity: number,
): Promise<boolean> {
  if (!Number.isInteger(quantity) || quantity < 1) return false;
  const taken = await db
    .update(offerings)
    .set({ stock: sql`${offerings.stock} - ${quantity}` })
    .where(
      and(eq(offerings.id, offeringId), isNotNull(offerings.stock), gte(offerings.stock, quantity)),
    )
    .returning({ id: offerings.id });
  return taken.length === 1;
}
