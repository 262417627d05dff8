import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { cartItems, carts } from '#db/schema/commerce.ts';
import { onAccountsChanged } from '#domain/accounts/service.ts';
import { tokenDigest } from '#domain/accounts/session-token.ts';
import { unavailabilityReason } from '#domain/catalog/availability.ts';
import type { OfferingTermFacts } from '#domain/catalog/offering-terms.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Invalid, NotFound } from '#domain/shared/errors.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { cartItemKind } from './cart-button.ts';
import { assertNoChoiceConflict, knownSection } from './course-materials.ts';
import { purchaseRefusals } from './purchase-check.ts';
import type { PurchaseRefusal } from './purchase-value.ts';

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
  /** What the purchase rule reads (purchase-value.ts). */
  productType: string;
  status: string;
  durationDays: number | null;
  /** What the offering gives, said in words on the line (issue 19, offering-terms.ts). */
  term: OfferingTermFacts;
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

// The navbar's count is on every logged-in page (decision 043): each process keeps an
// account's up to 30 s, forgotten the moment its cart changes anywhere (notification
// 'u:<id>', migration 0050; server/app.ts) and, in the process that changed it, by the write
// here (forgetLineCount). An anonymous browser's count is not kept.
const lineCountCache = new TimedCache<number, number>(30_000, 10_000);
onAccountsChanged((ids) => {
  for (const id of ids) lineCountCache.delete(id);
});

function forgetLineCount(owner: CartOwner): void {
  if ('userId' in owner) lineCountCache.delete(owner.userId);
}

/** How many lines a cart holds (the navbar's count, issue 19), in one query. */
export async function cartLineCount(db: Queryable, owner: CartOwner): Promise<number> {
  if ('userId' in owner) {
    return lineCountCache.getOrLoad(owner.userId, () => countLines(db, owner));
  }
  return countLines(db, owner);
}

async function countLines(db: Queryable, owner: CartOwner): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(ownerWhere(owner));
  return Number(row?.count ?? 0);
}

/** The lines of a cart, oldest first, with their product and offering. */
export async function cartLines(db: Queryable, owner: CartOwner): Promise<CartLine[]> {
  // One statement, the cart found by its owner in the join: a checkout reads its lines
  // several times (issue 40, statements per step in docs/benchmarks.md).
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
      productType: products.productType,
      status: products.status,
      durationDays: offerings.durationDays,
      term: {
        productType: products.productType,
        type: offerings.type,
        durationDays: offerings.durationDays,
        isRental: offerings.isRental,
      },
    })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .innerJoin(products, eq(products.id, cartItems.productId))
    .innerJoin(offerings, eq(offerings.id, cartItems.offeringId))
    .where(ownerWhere(owner))
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
      productType: products.productType,
      durationDays: offerings.durationDays,
      isRental: offerings.isRental,
      status: products.status,
      isDisabled: products.isDisabled,
      blockedCountries: products.blockedCountries,
      blockedHosts: products.blockedHosts,
      saleHold: products.saleHold,
      saleStartsAt: products.saleStartsAt,
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
    saleHold: offer.saleHold,
    saleStartsAt: offer.saleStartsAt,
    now: ctx.now,
    activeOfferings: 1,
    country: ctx.country,
    host: ctx.site.host,
  });
  if (unavailable) throw new Invalid('cart.error.unavailable');
  return offer;
}

/**
 * Refuses an offering that would give the shopper nothing they lack (issue 19): a title
 * already theirs for as long or longer, or one with nothing to deliver. Conflict with the
 * rule's reason; the cart stays as it was.
 */
async function assertAddsSomething(
  ctx: RequestContext,
  userId: number | null,
  offer: {
    productId: number;
    productType: string;
    status: string;
    type: string;
    durationDays: number | null;
  },
): Promise<void> {
  const [refusal] = await purchaseRefusals(ctx, userId, [
    {
      productId: offer.productId,
      productType: offer.productType,
      status: offer.status,
      offeringType: offer.type,
      durationDays: offer.durationDays,
    },
  ]);
  if (refusal) throw new Conflict(refusal.reason, refusal.params);
}

/** One offering as an order line, for the wallet button's single-item order. */
export async function offeringLine(
  ctx: RequestContext,
  db: Queryable,
  offeringId: number,
): Promise<CartLine> {
  const offer = await sellableOffering(ctx, db, offeringId);
  await assertAddsSomething({ ...ctx, db }, ctx.user?.id ?? null, offer);
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
    productType: offer.productType,
    status: offer.status,
    durationDays: offer.durationDays,
    term: {
      productType: offer.productType,
      type: offer.type,
      durationDays: offer.durationDays,
      isRental: offer.isRental,
    },
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
  const itemId = await ctx.db.transaction(async (tx) => {
    const offer = await sellableOffering(ctx, tx, input.offeringId);
    // The visitor's cart is asked again with their account on login (reconcileCart).
    await assertAddsSomething({ ...ctx, db: tx }, 'userId' in owner ? owner.userId : null, offer);
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
  forgetLineCount(owner);
  return itemId;
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
  forgetLineCount(owner);
  // Another shopper's item id changes nothing and reads as not found.
  if (removed.length === 0) throw new NotFound();
}

/**
 * On login, the anonymous browser's cart joins the account's: its items are added (an item
 * for a product already in the account's cart gives way to the newer choice), then the
 * anonymous cart is deleted. An item the purchase rule refuses for this account never
 * displaces the account's own choice for that product; where it stands alone it joins, and
 * the next look at the cart takes it out and says why (reconcileCart).
 */
export async function mergeAnonymousCart(
  ctx: RequestContext,
  anonymousKey: string,
  userId: number,
): Promise<void> {
  // Most logins bring no anonymous cart: one look, no transaction (issue 40: round trips).
  if (!(await cartId(ctx.db, { anonymousKey }, false))) return;
  await ctx.db.transaction(async (tx) => {
    const anonymousId = await cartId(tx, { anonymousKey }, false);
    if (!anonymousId) return;
    const items = await cartLines(tx, { anonymousKey });
    const accountId = (await cartId(tx, { userId }, true))!;
    const refusals = await purchaseRefusals({ ...ctx, db: tx }, userId, items);
    const accountProducts = new Set(
      (await cartLines(tx, { userId })).map((line) => line.productId),
    );
    for (const [n, item] of items.entries()) {
      if (refusals[n] && accountProducts.has(item.productId)) continue;
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
  forgetLineCount({ userId });
}

export type RemovedLine = {
  title: string;
  languageCode: string;
  refusal: PurchaseRefusal;
};

/**
 * The cart as the shopper may pay for it (issue 19): every line the purchase rule refuses
 * now — the title became theirs (bought elsewhere, a course, a redeemed code, a guest cart
 * merged on login) or has nothing to deliver — is taken out, in one statement, and returned
 * with its reason so the page can say what was removed and why. Every page and call that
 * shows a cart before payment reads it through here.
 */
export async function reconcileCart(
  ctx: RequestContext,
  owner: CartOwner,
): Promise<{ lines: CartLine[]; removed: RemovedLine[] }> {
  const lines = await cartLines(ctx.db, owner);
  const refusals = await purchaseRefusals(ctx, 'userId' in owner ? owner.userId : null, lines);
  const removed = lines.flatMap((line, n) => {
    const refusal = refusals[n];
    return refusal ? [{ line, refusal }] : [];
  });
  if (removed.length === 0) return { lines, removed: [] };
  const id = (await cartId(ctx.db, owner, false))!;
  await ctx.db.delete(cartItems).where(
    and(
      eq(cartItems.cartId, id),
      inArray(
        cartItems.id,
        removed.map((r) => r.line.id),
      ),
    ),
  );
  forgetLineCount(owner);
  const gone = new Set(removed.map((r) => r.line.id));
  return {
    lines: lines.filter((line) => !gone.has(line.id)),
    removed: removed.map(({ line, refusal }) => ({
      title: line.title,
      languageCode: line.languageCode,
      refusal,
    })),
  };
}

/** Sum of the lines' prices, in cents (USD only). */
export function subtotalCents(lines: readonly CartLine[]): number {
  return lines.reduce((sum, line) => sum + line.priceCents, 0);
}
