import { and, asc, eq, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { cartItems, carts } from '#db/schema/commerce.ts';
import { tokenDigest } from '#domain/accounts/session-token.ts';
import { unavailabilityReason } from '#domain/catalog/availability.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid, NotFound } from '#domain/shared/errors.ts';
import { cartItemKind } from './cart-button.ts';
import { assertNoChoiceConflict, knownSection } from './course-materials.ts';

// Carts (issue 4): one per account, and one per anonymous browser (keyed by a digest of its
// anonymous cookie), merged into the account's on login. One item per product; every change
// is one transaction, so a failure never leaves a half-written cart.

export type CartOwner = { userId: number } | { anonymousKey: string };

/** Whose cart a request works on: the account's, else the anonymous browser's, else none. */
export function cartOwnerOf(
  user: { id: number } | null,
  anonymousKey: string | null,
): CartOwner | null {
  if (user) return { userId: user.id };
  return anonymousKey ? { anonymousKey } : null;
}

export type CartLine = {
  id: number;
  productId: number;
  offeringId: number;
  courseSectionId: number | null;
  isDigital: boolean;
  isPrint: boolean;
  title: string;
  /** The title's language (pages mark it with `lang`, issue 13). */
  languageCode: string;
  offeringType: string;
  priceCents: number;
  currencyCode: string;
};

/** offeringPriceCents (cart-button.ts) in SQL: a combo's price includes its print copy. */
export const linePrice = sql<number>`case when ${offerings.type} = 'combo' then coalesce(${offerings.comboPriceCents}, ${offerings.priceCents}) else ${offerings.priceCents} end`;

function ownerWhere(owner: CartOwner) {
  return 'userId' in owner
    ? eq(carts.userId, owner.userId)
    : eq(carts.anonymousTokenHash, tokenDigest(owner.anonymousKey));
}

async function cartId(db: Queryable, owner: CartOwner, create: boolean): Promise<string | null> {
  const [found] = await db.select({ id: carts.id }).from(carts).where(ownerWhere(owner)).limit(1);
  if (found || !create) return found?.id ?? null;
  const [made] = await db
    .insert(carts)
    .values(
      'userId' in owner
        ? { userId: owner.userId }
        : { anonymousTokenHash: tokenDigest(owner.anonymousKey) },
    )
    .onConflictDoNothing()
    .returning({ id: carts.id });
  return made?.id ?? (await cartId(db, owner, false));
}

/** The lines of a cart, oldest first, with their product and offering. */
export async function cartLines(db: Queryable, owner: CartOwner): Promise<CartLine[]> {
  const id = await cartId(db, owner, false);
  if (!id) return [];
  return db
    .select({
      id: cartItems.id,
      productId: cartItems.productId,
      offeringId: cartItems.offeringId,
      courseSectionId: cartItems.courseSectionId,
      isDigital: cartItems.isDigital,
      isPrint: cartItems.isPrint,
      title: products.title,
      languageCode: products.languageCode,
      offeringType: offerings.type,
      priceCents: linePrice,
      currencyCode: offerings.currencyCode,
    })
    .from(cartItems)
    .innerJoin(products, eq(products.id, cartItems.productId))
    .innerJoin(offerings, eq(offerings.id, cartItems.offeringId))
    .where(eq(cartItems.cartId, id))
    .orderBy(asc(cartItems.id));
}

/** An offering the shopper may buy here and now; NotFound or Invalid otherwise. */
async function sellableOffering(ctx: RequestContext, db: Queryable, offeringId: number) {
  const [offer] = await db
    .select({
      productId: offerings.productId,
      bookType: offerings.bookType,
      type: offerings.type,
      isActive: offerings.isActive,
      title: products.title,
      languageCode: products.languageCode,
      priceCents: linePrice,
      status: products.status,
      isDisabled: products.isDisabled,
      blockedCountries: products.blockedCountries,
      blockedHosts: products.blockedHosts,
    })
    .from(offerings)
    .innerJoin(products, eq(products.id, offerings.productId))
    .where(eq(offerings.id, offeringId))
    .limit(1);
  if (!offer || !offer.isActive) throw new NotFound('cart.error.offering');
  const unavailable = unavailabilityReason({
    status: offer.status,
    isDisabled: offer.isDisabled,
    blockedCountries: offer.blockedCountries,
    blockedHosts: offer.blockedHosts,
    activeOfferings: 1,
    country: ctx.country,
    host: ctx.site.host,
  });
  if (unavailable) throw new Invalid('cart.error.unavailable');
  return offer;
}

/** One offering as an order line, for the wallet button's single-item order. */
export async function offeringLine(
  ctx: RequestContext,
  db: Queryable,
  offeringId: number,
): Promise<CartLine> {
  const offer = await sellableOffering(ctx, db, offeringId);
  return {
    id: 0,
    productId: offer.productId,
    offeringId,
    courseSectionId: null,
    ...cartItemKind(offer.bookType),
    title: offer.title,
    languageCode: offer.languageCode,
    offeringType: offer.type,
    priceCents: offer.priceCents,
    currencyCode: 'USD',
  };
}

/**
 * Add To Cart, or Update Cart when the product is already there with another offering: the
 * current item is removed and the new one added, together (spec 1 §4 Cart button). Answers
 * the new item's id.
 */
export async function putInCart(
  ctx: RequestContext,
  owner: CartOwner,
  input: { offeringId: number; courseSectionId?: number | null },
): Promise<number> {
  return ctx.db.transaction(async (tx) => {
    const offer = await sellableOffering(ctx, tx, input.offeringId);
    const id = (await cartId(tx, owner, true))!;
    await assertNoChoiceConflict(tx, id, offer.productId);
    await tx
      .delete(cartItems)
      .where(and(eq(cartItems.cartId, id), eq(cartItems.productId, offer.productId)));
    const [added] = await tx
      .insert(cartItems)
      .values({
        cartId: id,
        productId: offer.productId,
        offeringId: input.offeringId,
        courseSectionId: await knownSection(tx, input.courseSectionId),
        ...cartItemKind(offer.bookType),
      })
      .returning({ id: cartItems.id });
    return added!.id;
  });
}

/** The offering of this product in the shopper's cart, if it is there. */
export async function cartOfferingOf(
  db: Queryable,
  owner: CartOwner | null,
  productId: number,
): Promise<number | null> {
  if (!owner) return null;
  const [row] = await db
    .select({ offeringId: cartItems.offeringId })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(and(ownerWhere(owner), eq(cartItems.productId, productId)))
    .limit(1);
  return row?.offeringId ?? null;
}

export async function removeFromCart(
  db: Queryable,
  owner: CartOwner,
  cartItemId: number,
): Promise<void> {
  const id = await cartId(db, owner, false);
  if (!id) throw new NotFound();
  const removed = await db
    .delete(cartItems)
    .where(and(eq(cartItems.id, cartItemId), eq(cartItems.cartId, id)))
    .returning({ id: cartItems.id });
  // Another shopper's item id changes nothing and reads as not found.
  if (removed.length === 0) throw new NotFound();
}

/**
 * On login, the anonymous browser's cart joins the account's: its items are added (an item
 * for a product already in the account's cart gives way to the newer choice), then the
 * anonymous cart is deleted.
 */
export async function mergeAnonymousCart(
  db: Queryable,
  anonymousKey: string,
  userId: number,
): Promise<void> {
  await db.transaction(async (tx) => {
    const anonymousId = await cartId(tx, { anonymousKey }, false);
    if (!anonymousId) return;
    const items = await tx.select().from(cartItems).where(eq(cartItems.cartId, anonymousId));
    const accountId = (await cartId(tx, { userId }, true))!;
    for (const item of items) {
      await tx
        .delete(cartItems)
        .where(and(eq(cartItems.cartId, accountId), eq(cartItems.productId, item.productId)));
      await tx.insert(cartItems).values({
        cartId: accountId,
        productId: item.productId,
        offeringId: item.offeringId,
        courseSectionId: item.courseSectionId,
        isDigital: item.isDigital,
        isPrint: item.isPrint,
      });
    }
    await tx.delete(carts).where(eq(carts.id, anonymousId));
  });
}

/** Sum of the lines' prices, in cents (USD only). */
export function subtotalCents(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.priceCents, 0);
}
