// What an order's page says of its state (issue 20, "Orders and receipts": paid, pending,
// failed, refunded): one word from the order's lifecycle (order-status.ts) and its payments.
// A canceled or pending order whose last payment attempt failed reads 'failed'; refunds are
// the payments marked refunded, and an order refunded for less than its total reads
// 'partiallyRefunded'.
import type { OrderStatus } from './order-status.ts';

export type DisplayStatus =
  | 'paid'
  | 'pending'
  | 'failed'
  | 'canceled'
  | 'refunded'
  | 'partiallyRefunded';

export type PaymentFacts = {
  status: string;
  amountCents: number;
  failure: string | null;
  updatedAt: Date;
};

export type Refund = { amountCents: number; at: Date };

/** The refunds of an order: its refunded payments, oldest first. */
export function refundsOf(payments: readonly PaymentFacts[]): Refund[] {
  return payments
    .filter((payment) => payment.status === 'refunded')
    .map((payment) => ({ amountCents: payment.amountCents, at: payment.updatedAt }))
    .sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * `lineRefunds`: the order's lines refunded one by one (issue 39, refunds.ts); the order stays
 * paid in its lifecycle and reads refunded once they add up to its total (decision 038).
 */
export function displayStatus(
  order: { status: OrderStatus; totalCents: number },
  payments: readonly PaymentFacts[],
  lineRefunds: readonly Refund[] = [],
): DisplayStatus {
  const refunded = [...refundsOf(payments), ...lineRefunds].reduce(
    (sum, refund) => sum + refund.amountCents,
    0,
  );
  if (order.status === 'refunded') {
    return refunded > 0 && refunded < order.totalCents ? 'partiallyRefunded' : 'refunded';
  }
  if (order.status === 'paid' || order.status === 'fulfilled') {
    if (refunded <= 0) return 'paid';
    return refunded >= order.totalCents ? 'refunded' : 'partiallyRefunded';
  }
  const latest = [...payments].sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime())[0];
  const failed = latest !== undefined && latest.status !== 'succeeded' && latest.failure !== null;
  if (failed) return 'failed';
  return order.status === 'canceled' ? 'canceled' : 'pending';
}

/** What the help desk says of one payment attempt (issue 39): its gateway's word, refunds counted. */
export type PaymentState =
  | { kind: 'gateway'; status: string }
  | { kind: 'partiallyRefunded'; refundedCents: number }
  | { kind: 'refunded' };

/**
 * A succeeded payment stays succeeded at the gateway when lines of its order are refunded one
 * by one (refunds.ts): it reads refunded in full once the order's line refunds reach its amount,
 * partly refunded (by how much) before that. Any other payment says its gateway's status.
 */
export function paymentState(
  payment: { status: string; amountCents: number },
  lineRefundedCents: number,
): PaymentState {
  if (payment.status !== 'succeeded' || lineRefundedCents <= 0) {
    return { kind: 'gateway', status: payment.status };
  }
  if (lineRefundedCents >= payment.amountCents) return { kind: 'refunded' };
  return { kind: 'partiallyRefunded', refundedCents: lineRefundedCents };
}
