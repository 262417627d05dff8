import { z } from 'zod';
import type { OfferingTermFacts } from '#domain/catalog/offering-terms.ts';
import type { RemovedLineView } from '#web/commerce/removed-lines-notice.tsx';
import { errorDetail } from './api-error-detail.ts';

// The cart sheet's calls (spec 2 §7 Cart): list the cart, create and delete cart items. The
// server answers failures with a translated detail, shown as it comes.

/** A cart item with its product and offering (spec 1 §3 Cart item). */
export type CartItem = {
  id: number;
  productId: number;
  offeringId: number;
  courseSectionId: number | null;
  isDigital: boolean;
  isPrint: boolean;
  title: string;
  /** The title's language. */
  languageCode: string;
  priceCents: number;
  currencyCode: string;
  /** What the offering gives (issue 19, offering-terms.ts). */
  term: OfferingTermFacts;
};

/** The user cart: its items and subtotal (spec 1 §3 User cart). */
export type Cart = {
  items: CartItem[];
  subtotalCents: number;
  currencyCode: string;
  /** Lines the server took out before payment, and why (issue 19). */
  removed: RemovedLineView[];
};

export type CartResult<T> = { ok: true; value: T } | { ok: false; message: string | null };

const cartItemResource = z.object({
  type: z.literal('cart-item'),
  id: z.string().regex(/^\d+$/),
  attributes: z.object({
    productId: z.number().int(),
    offeringId: z.number().int(),
    courseId: z.number().int().nullable(),
    isDigital: z.boolean(),
    isPrint: z.boolean(),
    title: z.string(),
    language: z.string(),
    price: z.number().int(),
    currencyCode: z.string(),
    productType: z.string(),
    offeringType: z.string(),
    durationDays: z.number().int().nullable(),
    isRental: z.boolean(),
  }),
});
const cartDocument = z.object({
  data: z.array(cartItemResource),
  meta: z.object({
    subtotal: z.number().int(),
    currencyCode: z.string(),
    removed: z
      .array(
        z.object({
          title: z.string(),
          languageCode: z.string(),
          refusal: z.object({ reason: z.string(), params: z.record(z.string(), z.string()) }),
        }),
      )
      .default([]),
  }),
});

function toCartItem(resource: z.infer<typeof cartItemResource>): CartItem {
  const { courseId, price, language, productType, offeringType, durationDays, isRental, ...rest } =
    resource.attributes;
  return {
    id: Number(resource.id),
    ...rest,
    languageCode: language,
    courseSectionId: courseId,
    priceCents: price,
    term: { productType, type: offeringType, durationDays, isRental },
  };
}

/** Resolves a GET /api/cart document; throws when it is not one. */
export function parseCartDocument(json: unknown): Cart {
  const doc = cartDocument.parse(json);
  return {
    items: doc.data.map(toCartItem),
    subtotalCents: doc.meta.subtotal,
    currencyCode: doc.meta.currencyCode,
    removed: doc.meta.removed,
  };
}

const JSON_API = 'application/vnd.api+json';

/** Loads the shopper's cart; rejects only when the request itself fails (or is aborted). */
export async function fetchCart(signal: AbortSignal): Promise<CartResult<Cart>> {
  const response = await fetch('/api/cart', {
    headers: { Accept: JSON_API },
    credentials: 'same-origin',
    signal,
  });
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, message: errorDetail(body) };
  try {
    return { ok: true, value: parseCartDocument(body) };
  } catch {
    return { ok: false, message: null };
  }
}

function write(method: 'POST' | 'DELETE', path: string, csrfToken: string, body?: unknown) {
  return fetch(path, {
    method,
    credentials: 'same-origin',
    headers: {
      Accept: JSON_API,
      ...(body === undefined ? {} : { 'Content-Type': JSON_API }),
      'X-CSRFToken': csrfToken,
    },
    body: body === undefined ? null : JSON.stringify(body),
  });
}

/**
 * Add To Cart (spec 2 §7 Cart, create). A refused add leaves the cart as it was and carries
 * the server's reason; a failed request carries none.
 */
export async function addCartItem(
  csrfToken: string,
  input: { offeringId: number; courseId: number | null },
): Promise<CartResult<CartItem>> {
  const attributes = {
    offeringId: input.offeringId,
    ...(input.courseId ? { courseId: input.courseId } : {}),
  };
  const response = await write('POST', '/api/cart/items', csrfToken, {
    data: { type: 'cart-item', attributes },
  }).catch(() => null);
  if (!response) return { ok: false, message: null };
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok) return { ok: false, message: errorDetail(body) };
  const parsed = z.object({ data: cartItemResource }).safeParse(body);
  return parsed.success
    ? { ok: true, value: toCartItem(parsed.data.data) }
    : { ok: false, message: null };
}

/**
 * Removes a cart item (spec 2 §7 Cart, delete). An item that is no longer in the cart (404)
 * counts as removed: the cart reloaded next shows how things are.
 */
export async function removeCartItem(csrfToken: string, id: number): Promise<CartResult<null>> {
  const response = await write('DELETE', `/api/cart/items/${id}`, csrfToken).catch(() => null);
  if (!response) return { ok: false, message: null };
  if (response.ok || response.status === 404) return { ok: true, value: null };
  return { ok: false, message: errorDetail(await response.json().catch(() => null)) };
}
