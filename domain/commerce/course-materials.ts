import { and, eq, inArray, or } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { cartItems } from '#db/schema/commerce.ts';
import { courseSections, sectionProducts } from '#db/schema/courses.ts';
import { Conflict } from '#domain/shared/errors.ts';

// Course materials in the cart (spec 1 §4 Course fee): the two versions of a physical/digital
// choice never sit in one cart together. (Whether an item opens 'Reading Option' instead is the
// entitlement rule's: the course fee opens it.)

/** The products that are the other version of this one in some physical/digital choice. */
async function otherVersions(db: Queryable, productId: number): Promise<number[]> {
  const rows = await db
    .select({ a: sectionProducts.productId, b: sectionProducts.additionalProductId })
    .from(sectionProducts)
    .where(
      and(
        eq(sectionProducts.isPhysicalDigitalChoice, true),
        or(
          eq(sectionProducts.productId, productId),
          eq(sectionProducts.additionalProductId, productId),
        ),
      ),
    );
  const others = rows.flatMap((row) => [row.a, row.b]).filter((id) => id !== null);
  return [...new Set(others as number[])].filter((id) => id !== productId);
}

/** Refuses a product whose other version is already in this cart (spec 1 §4 Course fee). */
export async function assertNoChoiceConflict(
  db: Queryable,
  cartId: string,
  productId: number,
): Promise<void> {
  const others = await otherVersions(db, productId);
  if (others.length === 0) return;
  const [clash] = await db
    .select({ id: cartItems.id })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cartId), inArray(cartItems.productId, others)))
    .limit(1);
  if (clash) throw new Conflict('cart.error.choiceConflict');
}

/** A course id given with an item (ecommerce_course_id) names an existing section, or none. */
export async function knownSection(db: Queryable, sectionId: number | null | undefined) {
  if (!sectionId) return null;
  const [row] = await db
    .select({ id: courseSections.id })
    .from(courseSections)
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  return row?.id ?? null;
}
