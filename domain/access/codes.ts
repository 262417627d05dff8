import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { ownerships } from '#db/schema/shelf.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden, NotFound } from '#domain/shared/errors.ts';
import { activeOwnership } from '#domain/shelf/ownership.ts';

export type HeldAccessCode = { code: string; url: string | null } | null;

const heldColumns = { code: accessCodes.code, url: accessCodes.accessCodeUrl };

/**
 * Gives the user an access code of the product's pool, in the caller's transaction (issue 4:
 * courseware bought gets a code). A user who already holds one keeps it; concurrent buyers
 * never get the same code, nor wait for one another: each takes the first code nobody holds or
 * is taking (SKIP LOCKED). A code revoked by a refund is not held: it is never given again. Null when the pool is empty: the purchase stands and the shelf
 * offers Acquire Access Code later (spec 1 §4 Access code panel).
 */
export async function assignAccessCode(
  db: Queryable,
  input: { productId: number; userId: number; orderId: string | null; now: Date },
): Promise<HeldAccessCode> {
  // One assignment at a time per user and product: two presses at once would otherwise each
  // find no code held, and the second skip the first's locked code and take another.
  await db.execute(
    sql`select pg_advisory_xact_lock(${input.userId}::int, ${input.productId}::int)`,
  );
  const [held] = await db
    .select(heldColumns)
    .from(accessCodes)
    .where(
      and(
        eq(accessCodes.productId, input.productId),
        eq(accessCodes.assignedUserId, input.userId),
        isNull(accessCodes.revokedAt),
      ),
    )
    .limit(1);
  if (held) return held;
  // One statement takes the code: the first free one nobody else is taking at this instant.
  const nextFree = db
    .select({ id: accessCodes.id })
    .from(accessCodes)
    .where(and(eq(accessCodes.productId, input.productId), isNull(accessCodes.assignedUserId)))
    .orderBy(asc(accessCodes.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [assigned] = await db
    .update(accessCodes)
    .set({ assignedUserId: input.userId, orderId: input.orderId, assignedAt: input.now })
    .where(sql`${accessCodes.id} = (${nextFree})`)
    .returning(heldColumns);
  return assigned ?? null;
}

/** Whether the user owns the product now (an active ownership); NotFound otherwise. */
async function requireOwned(ctx: RequestContext, productId: number): Promise<number> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const [owned] = await ctx.db
    .select({ userId: ownerships.userId })
    .from(ownerships)
    .where(
      and(
        eq(ownerships.userId, user.id),
        eq(ownerships.productId, productId),
        activeOwnership(ctx.now),
      ),
    )
    .limit(1);
  // The server's 'subscription not found' (spec 1 §4 Access code panel).
  if (!owned) throw new NotFound('access.error.subscription');
  return owned.userId;
}

/** The access code the user holds for a courseware they own, or null (none yet). */
export async function heldAccessCode(
  ctx: RequestContext,
  productId: number,
): Promise<HeldAccessCode> {
  const userId = await requireOwned(ctx, productId);
  const [held] = await ctx.db
    .select(heldColumns)
    .from(accessCodes)
    .where(
      and(
        eq(accessCodes.productId, productId),
        eq(accessCodes.assignedUserId, userId),
        // A code whose order line was refunded works no more (refunds-settle.ts).
        isNull(accessCodes.revokedAt),
      ),
    )
    .limit(1);
  return held ?? null;
}

/**
 * Acquire Access Code: a code from the pool for a courseware the user owns (a retry after a
 * purchase found the pool empty). Conflict with the spec's failure text when none is left.
 */
export async function acquireAccessCode(
  ctx: RequestContext,
  productId: number,
): Promise<NonNullable<HeldAccessCode>> {
  const userId = await requireOwned(ctx, productId);
  const held = await ctx.db.transaction((tx) =>
    assignAccessCode(tx, { productId, userId, orderId: null, now: ctx.now }),
  );
  if (!held) throw new Conflict('access.error.retrieve');
  return held;
}
