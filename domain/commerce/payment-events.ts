import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { orders, paymentEvents } from '#db/schema/commerce.ts';
import { Conflict } from '#domain/shared/errors.ts';
import { settlePayment } from './checkout.ts';
import type { GatewayEvent, GatewayName } from './payment-gateway.ts';
import { releaseOrderWithoutLivePayment } from './payment-recovery.ts';

/**
 * What became of a provider's event:
 * - `applied`: the payment (and its order) now say what the event says;
 * - `duplicate`: this event was received before and changed nothing this time;
 * - `ignored`: recorded, but not about a payment of one of our orders;
 * - `conflict`: recorded, but the store refused it (money taken for an order that is no
 *   longer waiting for it, or a wrong amount): a person must refund or look.
 */
export type EventOutcome = 'applied' | 'duplicate' | 'ignored' | 'conflict';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Applies a provider's signed notice about a payment (issue 4), once per event id: the event
 * is recorded in the transaction that applies it, so a redelivery finds it and changes
 * nothing, and a failure part-way records nothing and lets the provider deliver it again.
 * Events may come in any order: a success pays and fulfils once (settlePayment), and a
 * failure or a cancelation never undoes a success. Everything it writes carries `receivedAt`,
 * when the signed event was in hand (decision 041): the event's own `created` stays in its
 * payload.
 */
export async function applyGatewayEvent(
  db: Queryable,
  gateway: GatewayName,
  event: GatewayEvent,
  receivedAt: Date,
): Promise<EventOutcome> {
  return db.transaction(async (tx) => {
    const recorded = await tx
      .insert(paymentEvents)
      .values({
        gateway,
        eventId: event.id,
        type: event.providerType,
        receivedAt,
        payload: event.payload ?? {},
      })
      .onConflictDoNothing({ target: [paymentEvents.gateway, paymentEvents.eventId] })
      .returning({ eventId: paymentEvents.eventId });
    if (recorded.length === 0) return 'duplicate';
    const payment = event.payment;
    if (event.type === 'other' || !payment?.orderId || !(await orderExists(tx, payment.orderId))) {
      return 'ignored';
    }
    try {
      await settlePayment(tx, gateway, payment, receivedAt);
    } catch (error) {
      // recordSuccessfulPayment refused and rolled its own part back; the event stays recorded.
      if (error instanceof Conflict) return 'conflict';
      throw error;
    }
    if (event.type === 'payment.canceled' && payment.status === 'canceled') {
      await releaseOrderWithoutLivePayment(tx, payment.orderId, receivedAt);
    }
    return 'applied';
  });
}

async function orderExists(db: Queryable, orderId: string): Promise<boolean> {
  // Metadata is whatever was set on the provider's side: only a well-formed id is looked up.
  if (!UUID.test(orderId)) return false;
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(eq(orders.id, orderId))
    .limit(1);
  return order !== undefined;
}
