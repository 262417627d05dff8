import { and, eq, gte, isNotNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { orderItems } from '#db/schema/commerce.ts';

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

/**
 * Takes one unit for every line of an order whose offering is counted, in the order's own
 * transaction; the title of the first line with nothing left, else null (the caller rolls
 * the whole order back, so no unit is held by an order that was not placed).
 */
export async function takeOrderStock(db: Queryable, orderId: string): Promise<string | null> {
  const lines = await db
    .select({ id: orderItems.id, offeringId: orderItems.offeringId, title: products.title })
    .from(orderItems)
    .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(and(eq(orderItems.orderId, orderId), isNotNull(offerings.stock)))
    .orderBy(orderItems.offeringId);
  for (const line of lines) {
    if (!(await takeStock(db, line.offeringId, 1))) return line.title;
    await db.update(orderItems).set({ tookStock: true }).where(eq(orderItems.id, line.id));
  }
  return null;
}

/** Puts back the units a canceled order held. */
export async function returnStock(db: Queryable, orderId: string): Promise<void> {
  const lines = await db
    .update(orderItems)
    .set({ tookStock: false })
    .where(and(eq(orderItems.orderId, orderId), eq(orderItems.tookStock, true)))
    .returning({ offeringId: orderItems.offeringId });
  for (const line of lines) {
    await db
      .update(offerings)
      .set({ stock: sql`${offerings.stock} + 1` })
      .where(and(eq(offerings.id, line.offeringId), isNotNull(offerings.stock)));
  }
}
