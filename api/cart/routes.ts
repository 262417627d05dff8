import {
  cartLines,
  cartOwnerOf,
  putInCart,
  reconcileCart,
  removeFromCart,
  subtotalCents,
} from '#domain/commerce/cart.ts';
import { Forbidden } from '#domain/shared/errors.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';
import { cartItemResource } from './serializer.ts';
import { cartItemId, createCartItemBody } from './validators.ts';

// The cart calls (spec 2 §7 Cart): list, create and delete cart items. Anonymous shoppers have
// a cart too, their browser's; a request with neither a session nor that browser's key has no
// cart to write to, which can only be a request from outside the site.

function ownerOf(context: WebContext) {
  const owner = cartOwnerOf(context.rc.user, context.anonymousKey);
  if (!owner) throw new Forbidden('error.csrf');
  return owner;
}

/**
 * GET /api/cart: the shopper's cart items with product and offering, and the subtotal. Items
 * the shopper already holds or cannot receive leave the cart first (issue 19); `meta.removed`
 * names them with the reason's message id and values.
 */
export async function getCart(context: WebContext): Promise<Response> {
  const owner = cartOwnerOf(context.rc.user, context.anonymousKey);
  const { lines, removed } = owner
    ? await reconcileCart(context.rc, owner)
    : { lines: [], removed: [] };
  return jsonApi({
    data: lines.map(cartItemResource),
    meta: { subtotal: subtotalCents(lines), currencyCode: 'USD', removed },
  });
}

/**
 * POST /api/cart/items: Add To Cart, or Update Cart for a product already there (spec 1 §4
 * Cart button). A refused add leaves the cart as it was and answers the translated reason.
 */
export async function postCartItem(request: Request, context: WebContext): Promise<Response> {
  const owner = ownerOf(context);
  const parsed = createCartItemBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'error.invalid');
  const { offeringId, courseId } = parsed.data.data.attributes;
  const id = await putInCart(context.rc, owner, { offeringId, courseSectionId: courseId ?? null });
  const line = (await cartLines(context.rc.db, owner)).find((l) => l.id === id);
  // RFC 9110 §15.3.2: a 201 names what it created.
  return jsonApi(
    { data: cartItemResource(line!) },
    { status: 201, headers: { Location: `/api/cart/items/${id}` } },
  );
}

/** DELETE /api/cart/items/{id}: another shopper's item, like a malformed id, is not found. */
export async function deleteCartItem(
  _request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const id = cartItemId.safeParse(params.id);
  if (!id.success) return apiError(context, 404, 'error.notFound');
  await removeFromCart(context.rc.db, ownerOf(context), id.data);
  return new Response(null, { status: 204, headers: { 'Cache-Control': 'no-store' } });
}
