// What a buyer holds follows what they paid for and kept (issue 39, decision 038). One rule for
// every way a payment is given back — a line refund (refunds-settle.ts) and the refund of a
// payment made twice (payment-recovery.ts): the access a line gave ends with its refund, unless
// another paid line of the same buyer for the same title is still kept, whose access it then is.
// So "refunded ⇒ access ends" and "paid and kept ⇒ access stays" never contradict each other.

import { accessEndsAt, fulfilmentsOf } from './fulfilment-rules.ts';

export type BoughtLine = {
  orderId: string;
  /** The order's state: only a paid (or fulfilled) order gives access. */
  orderStatus: string;
  paidAt: Date | null;
  offeringType: string;
  durationDays: number | null;
  /** This line's refund so far (refunds.status), if any. */
  refundStatus: string | null;
};

/** A line the buyer paid for and still keeps: paid, giving access, not refunded nor on its way back. */
export function isKeptLine(line: BoughtLine): boolean {
  return (
    (line.orderStatus === 'paid' || line.orderStatus === 'fulfilled') &&
    line.paidAt !== null &&
    fulfilmentsOf(line.offeringType).includes('own') &&
    line.refundStatus !== 'approved' &&
    line.refundStatus !== 'refunded'
  );
}

/**
 * The access that stays once a line is given back: the longest one that one of the buyer's
 * other kept lines of the title gives (none ends: for life), counted from when it was paid;
 * null when none is kept or every kept one has ended by `now` — then the access ends.
 */
export function keptAccess(
  others: readonly BoughtLine[],
  now: Date,
): { orderId: string; expiresAt: Date | null } | null {
  const endOf = (access: { expiresAt: Date | null }) =>
    access.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
  let best: { orderId: string; expiresAt: Date | null } | null = null;
  for (const line of others) {
    if (!isKeptLine(line)) continue;
    const access = {
      orderId: line.orderId,
      expiresAt: accessEndsAt(line.paidAt!, line.durationDays),
    };
    if (endOf(access) <= now.getTime()) continue;
    if (!best || endOf(access) > endOf(best)) best = access;
  }
  return best;
}
