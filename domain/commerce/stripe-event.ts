import { Invalid } from '#domain/shared/errors.ts';
import type { GatewayEvent, GatewayPayment } from './payment-gateway.ts';
import { gatewayPaymentOf, isPaymentIntent } from './stripe-payment-intent.ts';

// Reading a Stripe event (docs.stripe.com/api/events/object) whose signature has been checked
// (stripe-gateway.ts, with Stripe's library, which also parses the JSON).

const TYPES: Record<string, GatewayEvent['type']> = {
  'payment_intent.succeeded': 'payment.succeeded',
  'payment_intent.payment_failed': 'payment.failed',
  'payment_intent.canceled': 'payment.canceled',
};

/** The event in the gateway's words; a signed body that is not an event is Invalid. */
export function gatewayEventOf(payload: unknown): GatewayEvent {
  if (typeof payload !== 'object' || payload === null) throw new Invalid();
  const event = payload as Record<string, unknown>;
  if (
    event.object !== 'event' ||
    typeof event.id !== 'string' ||
    typeof event.type !== 'string' ||
    !Number.isInteger(event.created)
  ) {
    throw new Invalid();
  }
  const object = (event.data as { object?: unknown } | undefined)?.object;
  return {
    id: event.id,
    type: TYPES[event.type] ?? 'other',
    providerType: event.type,
    createdAt: new Date((event.created as number) * 1000),
    payment: paymentOf(object),
    payload,
  };
}

/** The event's PaymentIntent; none for other objects, or one in a currency we do not sell in. */
function paymentOf(object: unknown): GatewayPayment | null {
  if (!isPaymentIntent(object) || object.currency.toLowerCase() !== 'usd') return null;
  return gatewayPaymentOf(object);
}
