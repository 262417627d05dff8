import { and, eq, inArray, ne, or } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { cartItems } from '#db/schema/commerce.ts';
import { courseSections, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import { onAccountsChanged } from '#domain/accounts/service.ts';
import { Conflict } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';

// Course materials in the cart (spec 1 §4 Course fee): a course-fee student's item opens the
// 'Reading Option' modal instead of going to the cart, and the two versions of a
// physical/digital choice never sit in one cart together.

// Every logged-in product view asks this: each process keeps a user's course-fee materials
// up to 30 s, forgotten at once when their memberships change (notification 'u:<id>').
type FeeMaterial = { sectionId: number; productId: number; additionalProductId: number | null };
const feeMaterials = new TimedCache<number, FeeMaterial[]>(30_000, 10_000);
onAccountsChanged((ids) => {
  for (const id of ids) feeMaterials.delete(id);
});

/**
 * The course-fee section through which this user gets this product, if any: the product is
 * one of the section's materials (either version of a choice) and the user's membership
 * there is a course fee.
 */
export async function courseFeeSection(
  db: Queryable,
  userId: number,
  productId: number,
): Promise<number | null> {
  const materials = await feeMaterials.getOrLoad(userId, () =>
    db
      .select({
        sectionId: sectionProducts.sectionId,
        productId: sectionProducts.productId,
        additionalProductId: sectionProducts.additionalProductId,
      })
      .from(sectionProducts)
      .innerJoin(
        sectionMembers,
        and(
          eq(sectionMembers.sectionId, sectionProducts.sectionId),
          eq(sectionMembers.userId, userId),
          eq(sectionMembers.isCourseFee, true),
          // An opted-out student is out of the program (spec 1 §6, courses/opting.ts).
          ne(sectionMembers.optStatus, 'opted_out'),
        ),
      )
      .orderBy(sectionProducts.sectionId),
  );
  const found = materials.find(
    (m) => m.productId === productId || m.additionalProductId === productId,
  );
  return found?.sectionId ?? null;
}

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
