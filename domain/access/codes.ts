import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';

/**
 * Gives the user an access code of the product's pool, in the caller's transaction (issue 4:
 * courseware bought gets a code). A user who already holds one keeps it; concurrent buyers
 * never get the same code (SKIP LOCKED). Null when the pool is empty: the purchase stands and
 * the shelf offers Acquire Access Code later (spec 1 §4 Access code panel).
 */
export async function assignAccessCode(
  db: Queryable,
  input: { productId: number; userId: number; orderId: string | null; now: Date },
): Promise<string | null> {
  const [held] = await db
    .select({ code: accessCodes.code })
    .from(accessCodes)
    .where(
      and(eq(accessCodes.productId, input.productId), eq(accessCodes.assignedUserId, input.userId)),
    )
    .limit(1);
  if (held) return held.code;
  const [free] = await db
    .select({ id: accessCodes.id })
    .from(accessCodes)
    .where(and(eq(accessCodes.productId, input.productId), isNull(accessCodes.assignedUserId)))
    .orderBy(asc(accessCodes.id))
    .limit(1)
    .for('update', { skipLocked: true });
  if (!free) return null;
  const [assigned] = await db
    .update(accessCodes)
    .set({ assignedUserId: input.userId, orderId: input.orderId, assignedAt: input.now })
    .where(and(eq(accessCodes.id, free.id), sql`${accessCodes.assignedUserId} is null`))
    .returning({ code: accessCodes.code });
  return assigned?.code ?? null;
}
