import { and, asc, eq, exists, ilike, inArray, isNotNull, lte, ne, sql } from 'drizzle-orm';
import { offerings, productIdentifiers, products } from '#db/schema/catalog.ts';
import { identifierReadings } from '#domain/catalog/isbn.ts';
import { type AuditActor, recordAudit } from '#domain/operations/audit.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Invalid, NotFound } from '#domain/shared/errors.ts';
import {
  INVENTORY_PAGE_SIZE,
  type InventoryFilter,
  LOW_STOCK,
  MAX_COUNTED,
  MAX_RECEIVED,
} from './inventory-rules.ts';

// My Inventory (spec 1 §2 user menu: "My Inventory (posting enabled and manager or
// impersonating)"): the store's counted stock — every offering whose units are counted (print
// copies, items), lowest first — and the two ways it changes by hand: a delivery received
// (units added to whatever is on hand, so a sale at the same instant is never lost) and a
// count (the units found set, only if nobody changed the stock since the count began). Each
// change is audited with the stock before and after. Orders take and return units themselves
// (stock.ts); nothing here goes below zero or past MAX_COUNTED.

export type InventoryLine = {
  offeringId: number;
  productId: number;
  title: string;
  productType: string;
  slug: string;
  isbn: string;
  type: string;
  durationDays: number | null;
  isRental: boolean;
  isActive: boolean;
  priceCents: number;
  currencyCode: string;
  stock: number;
  /**
   * The row's version as the page read it: PostgreSQL's `xmin`, the transaction that last wrote
   * the row, which every sale, return, refund, delivery and count changes. A count is saved
   * only over this version (the optimistic check EF Core's Npgsql provider offers with xmin).
   */
  version: string;
};

export type InventoryPage = {
  lines: InventoryLine[];
  total: number;
  page: number;
  pages: number;
};

const lineColumns = {
  offeringId: offerings.id,
  productId: products.id,
  title: products.title,
  productType: products.productType,
  slug: products.slug,
  // The print ISBN-13 where the product has one (these are print copies and items), else the
  // number its pages show.
  isbn: sql<string>`coalesce((select i.value from ${productIdentifiers} i
    where i.product_id = ${products.id} and i.type = 'ISBN13'), ${products.isbnText})`,
  type: offerings.type,
  durationDays: offerings.durationDays,
  isRental: offerings.isRental,
  isActive: offerings.isActive,
  priceCents: offerings.priceCents,
  currencyCode: offerings.currencyCode,
  stock: sql<number>`${offerings.stock}`.mapWith(Number),
  version: sql<string>`${offerings}.xmin::text`,
};

/** The counted offerings of products not deleted, lowest stock first, a page at a time. */
export async function inventory(
  ctx: RequestContext,
  input: { filter: InventoryFilter; page: number; q?: string },
): Promise<InventoryPage> {
  const where = and(
    isNotNull(offerings.stock),
    ne(products.status, 'deleted'),
    input.filter === 'low' ? lte(offerings.stock, LOW_STOCK) : undefined,
    input.q ? matching(ctx, input.q) : undefined,
  );
  const [{ total } = { total: 0 }] = await ctx.db
    .select({ total: sql<number>`count(*)::int` })
    .from(offerings)
    .innerJoin(products, eq(products.id, offerings.productId))
    .where(where);
  const pages = Math.max(1, Math.ceil(total / INVENTORY_PAGE_SIZE));
  const page = Math.min(Math.max(1, input.page), pages);
  const lines = await ctx.db
    .select(lineColumns)
    .from(offerings)
    .innerJoin(products, eq(products.id, offerings.productId))
    .where(where)
    .orderBy(asc(offerings.stock), asc(products.title), asc(offerings.id))
    .limit(INVENTORY_PAGE_SIZE)
    .offset((page - 1) * INVENTORY_PAGE_SIZE);
  return { lines, total, page, pages };
}

/**
 * Part of a title (any case), or any of the product's numbers (an ISBN as typed, hyphens and all,
 * or its ISBN-10 or -13 twin): what a clerk holding the book types.
 */
function matching(ctx: RequestContext, q: string) {
  const readings = identifierReadings(q);
  if (readings.length > 0) {
    return exists(
      ctx.db
        .select({ one: sql`1` })
        .from(productIdentifiers)
        .where(
          and(
            eq(productIdentifiers.productId, products.id),
            inArray(productIdentifiers.value, readings),
          ),
        ),
    );
  }
  return ilike(products.title, `%${q.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`);
}

/** One counted offering as the list shows it, or null (no such offering, or not counted). */
export async function inventoryLine(
  ctx: RequestContext,
  offeringId: number,
): Promise<InventoryLine | null> {
  const [line] = await ctx.db
    .select(lineColumns)
    .from(offerings)
    .innerJoin(products, eq(products.id, offerings.productId))
    .where(
      and(eq(offerings.id, offeringId), isNotNull(offerings.stock), ne(products.status, 'deleted')),
    );
  return line ?? null;
}

async function counted(ctx: RequestContext, offeringId: number) {
  const line = await inventoryLine(ctx, offeringId);
  if (!line) throw new NotFound('inventory.error.notCounted');
  return line;
}

/**
 * A delivery of `units` received: added to the units on hand in one statement, whatever orders
 * took meanwhile. Refused past MAX_COUNTED units on hand.
 */
export async function receiveStock(
  ctx: RequestContext,
  actor: AuditActor,
  input: { offeringId: number; units: number },
): Promise<{ stock: number }> {
  requireUnits(input.units, 1, MAX_RECEIVED);
  const line = await counted(ctx, input.offeringId);
  return ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .update(offerings)
      .set({ stock: sql`${offerings.stock} + ${input.units}` })
      .where(
        and(
          eq(offerings.id, input.offeringId),
          isNotNull(offerings.stock),
          lte(offerings.stock, MAX_COUNTED - input.units),
        ),
      )
      .returning({ stock: sql<number>`${offerings.stock}`.mapWith(Number) });
    if (!row) {
      // No longer counted (or gone) since it was read, else over the ceiling.
      if (!(await inventoryLine({ ...ctx, db: tx }, input.offeringId))) {
        throw new NotFound('inventory.error.notCounted');
      }
      throw new Invalid('inventory.error.tooMany', { max: MAX_COUNTED });
    }
    await recordAudit(tx, actor, {
      orgId: null,
      objectType: 'offering',
      objectId: input.offeringId,
      action: 'stock.receive',
      before: { productId: line.productId, stock: row.stock - input.units },
      after: { productId: line.productId, stock: row.stock },
    });
    return { stock: row.stock };
  });
}

/**
 * A count: the units found replace the units on hand, only if nothing wrote the stock since
 * the count began (`version`, read with the figure the page showed: a sale then a delivery
 * that bring the figure back where it was still change the version); otherwise nothing
 * changes and the person is told the stock now, to count again. Orders move stock all day: a
 * count saved over a sale would sell the same copy twice, and over a delivery lose it.
 */
export async function countStock(
  ctx: RequestContext,
  actor: AuditActor,
  input: { offeringId: number; counted: number; version: string },
): Promise<{ stock: number }> {
  requireUnits(input.counted, 0, MAX_COUNTED);
  if (!/^\d{1,10}$/.test(input.version)) throw new Invalid('error.invalid');
  const line = await counted(ctx, input.offeringId);
  return ctx.db.transaction(async (tx) => {
    const [before] = await tx
      .select({ stock: sql<number>`${offerings.stock}`.mapWith(Number) })
      .from(offerings)
      .where(
        and(
          eq(offerings.id, input.offeringId),
          isNotNull(offerings.stock),
          sql`${offerings}.xmin::text = ${input.version}`,
        ),
      )
      .for('update');
    if (!before) {
      const now = await inventoryLine({ ...ctx, db: tx }, input.offeringId);
      if (!now) throw new NotFound('inventory.error.notCounted');
      throw new Conflict('inventory.error.changed', { stock: now.stock });
    }
    const [row] = await tx
      .update(offerings)
      .set({ stock: input.counted })
      .where(eq(offerings.id, input.offeringId))
      .returning({ stock: sql<number>`${offerings.stock}`.mapWith(Number) });
    await recordAudit(tx, actor, {
      orgId: null,
      objectType: 'offering',
      objectId: input.offeringId,
      action: 'stock.count',
      before: { productId: line.productId, stock: before.stock },
      after: { productId: line.productId, stock: row!.stock },
    });
    return { stock: row!.stock };
  });
}

/** The domain's own guard: a figure the page would have refused is refused here too. */
function requireUnits(units: number, min: number, max: number): void {
  if (!Number.isInteger(units) || units < min || units > max) {
    throw new Invalid('inventory.error.units', { min, max });
  }
}
