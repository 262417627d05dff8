// Exactly-once money across crashes (issue 37). A buyer whose page never came back pays again
// from the cart: the store must find the order it already charged, not make a second one, and
// refund a second charge that slipped through anyway. These are the rules that decide what is
// "the same order"; payment-recovery.ts applies them to the database and the gateway.

/** How long a placed order may wait for its payment before its stock goes back on sale. */
export const ABANDONED_AFTER_MS = 60 * 60_000;

/**
 * Two paid orders of the same buyer for the same lines within this long are one purchase
 * paid twice: the later is refunded. A person who really wants a second copy of a posted
 * book buys it later, or in one order.
 */
export const DUPLICATE_WINDOW_MS = 15 * 60_000;

/**
 * How long after its last news a payment is asked about again at first; then less often as
 * the order ages (reconcileDelayMs), so an open payment page costs the gateway little.
 */
export const RECONCILE_FIRST_MS = 10_000;

/**
 * The reason on an order's move to paid when the charge was made before a crash (or a lost
 * answer) and found afterwards: its pages then tell the buyer their payment went through.
 */
export const INTERRUPTED_PAYMENT = 'interrupted payment settled';

/** How long the cart tells a buyer that an interrupted payment went through. */
export const RECOVERED_NOTICE_MS = 30 * 60_000;

/** The lines an order is for, comparable across orders: its offerings, sorted, with repeats. */
export function linesKey(offeringIds: readonly number[]): string {
  return [...offeringIds].sort((a, b) => a - b).join(',');
}

/**
 * Whether a second order repeats the first: the same buyer, the same lines, and the second
 * paid within DUPLICATE_WINDOW_MS of the first (either way round). An order is never a
 * duplicate of itself.
 *
 * Only what the buyer still holds counts (issue 39): an order with a line refunded, or whose
 * refund is on its way, is no longer the cart that was paid. A buyer who refunds a book and buys
 * it again pays for it once, and keeps it; the new payment is not a repeat of the refunded one.
 */
export function repeatsOrder(
  first: { id: string; userId: number; lines: string; paidAt: Date; kept: boolean },
  second: { id: string; userId: number; lines: string; paidAt: Date; kept: boolean },
): boolean {
  return (
    first.id !== second.id &&
    first.kept &&
    second.kept &&
    first.userId === second.userId &&
    first.lines === second.lines &&
    first.lines !== '' &&
    Math.abs(second.paidAt.getTime() - first.paidAt.getTime()) <= DUPLICATE_WINDOW_MS
  );
}

/**
 * Of two orders that repeat each other, the one to refund: the later paid (the buyer's first
 * payment is the one they meant), the later placed when both were paid at the same instant.
 */
export function laterOf<T extends { id: string; paidAt: Date; createdAt: Date }>(a: T, b: T): T {
  const [, later] = [a, b].sort(
    (x, y) =>
      x.paidAt.getTime() - y.paidAt.getTime() ||
      x.createdAt.getTime() - y.createdAt.getTime() ||
      x.id.localeCompare(y.id),
  );
  return later!;
}

/**
 * How long to wait, after a pending order's payment was last heard of, before asking the
 * gateway again: RECONCILE_FIRST_MS for a young order, then a quarter of its age (an order an
 * hour old is asked every quarter hour), so a page left open is asked a dozen times an hour.
 */
export function reconcileDelayMs(orderAgeMs: number): number {
  return Math.max(RECONCILE_FIRST_MS, Math.floor(orderAgeMs / 4));
}
