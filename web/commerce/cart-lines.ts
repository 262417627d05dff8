import { whenIdle } from '#web/utils/when-idle.ts';

// What is in the shopper's cart, for the navbar's count and a product page's cart button
// (issue 19). Both ask at the same moments (after hydration, after each navigation), so the
// questions asked before the browser is next idle share one GET /api/cart. A question asked
// while that request is on its way gets a request of its own: the cart may have changed since.

/** One line of the cart: which offering of which product. */
export type CartLine = { productId: number; offeringId: number };

type Listener = (lines: CartLine[] | null) => void;

const waiting = new Set<Listener>();
let cancelScheduled: (() => void) | null = null;

/**
 * The two fields this module needs from a GET /api/cart document. The cart sheet's full reader
 * (web/utils/cart-document.ts) checks every field with zod, which every page's first chunk
 * would then carry (issue 13's JavaScript budget); these two checks are all a count needs.
 */
function linesOf(body: unknown): CartLine[] | null {
  const data = (body as { data?: unknown } | null)?.data;
  if (!Array.isArray(data)) return null;
  return data.flatMap((item) => {
    const attributes = (item as { attributes?: Partial<CartLine> } | null)?.attributes;
    return typeof attributes?.productId === 'number' && typeof attributes.offeringId === 'number'
      ? [{ productId: attributes.productId, offeringId: attributes.offeringId }]
      : [];
  });
}

function ask(): void {
  cancelScheduled = null;
  const listeners = [...waiting];
  waiting.clear();
  fetch('/api/cart', {
    credentials: 'same-origin',
    headers: { Accept: 'application/vnd.api+json' },
  })
    .then((response) => (response.ok ? response.json() : null))
    .catch(() => null)
    .then((body: unknown) => {
      const lines = linesOf(body);
      for (const listener of listeners) listener(lines);
    });
}

/**
 * Asks for the cart's lines once the browser is idle; `listener` gets them, or null when the
 * cart could not be read. Returns a function that withdraws the question (an unmounted
 * component, a newer question): the listener is then not called.
 */
export function askCartLines(listener: Listener): () => void {
  let live = true;
  const once: Listener = (lines) => {
    if (live) listener(lines);
  };
  waiting.add(once);
  cancelScheduled ??= whenIdle(ask);
  return () => {
    live = false;
    waiting.delete(once);
    if (waiting.size === 0 && cancelScheduled) {
      cancelScheduled();
      cancelScheduled = null;
    }
  };
}
