import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { payments } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import type { PaymentFacts, Refund } from './order-display-status.ts';

// The facts displayStatus reads (order-display-status.ts), loaded beside it so that every page
// that names an order's state — the buyer's orders and receipt, the help desk's person page —
// asks the one rule with the same facts (issue 20, issue 39).

export type PaymentLine = PaymentFacts & { cardBrand: string | null; cardLast4: string | null };

export type OrderDisplayFacts = {
  /** The order's payment attempts, oldest first. */
  payments: PaymentLine[];
  /** Its lines refunded one by one (issue 39, refunds.ts). */
  lineRefunds: Refund[];
};

/** The payments and line refunds of these orders, by order id (every id has an entry). */
export async function orderDisplayFacts(
  db: Queryable,
  orderIds: readonly string[],
): Promise<Map<string, OrderDisplayFacts>> {
  const facts = new Map<string, OrderDisplayFacts>(
    orderIds.map((id) => [id, { payments: [], lineRefunds: [] }]),
  );
  if (orderIds.length === 0) return facts;
  const ids = [...new Set(orderIds)];
  const [paid, lineRefunds] = await Promise.all([
    db
      .select({
        orderId: payments.orderId,
        status: payments.status,
        amountCents: payments.amountCents,
        failure: payments.failure,
        updatedAt: payments.updatedAt,
        cardBrand: payments.cardBrand,
        cardLast4: payments.cardLast4,
      })
      .from(payments)
      .where(inArray(payments.orderId, ids))
      .orderBy(payments.createdAt),
    db
      .select({
        orderId: refunds.orderId,
        amountCents: refunds.amountCents,
        refundedAt: refunds.refundedAt,
      })
      .from(refunds)
      .where(and(inArray(refunds.orderId, ids), eq(refunds.status, 'refunded'))),
  ]);
  for (const { orderId, ...payment } of paid) facts.get(orderId)?.payments.push(payment);
  for (const refund of lineRefunds) {
    facts
      .get(refund.orderId)
      ?.lineRefunds.push({ amountCents: refund.amountCents, at: refund.refundedAt! });
  }
  return facts;
}
