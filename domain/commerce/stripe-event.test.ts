import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Invalid } from '#domain/shared/errors.ts';
import { gatewayEventOf } from './stripe-event.ts';

const fixture = (name: string): unknown =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/stripe/${name}`, import.meta.url), 'utf8'));

// Issue 4, Stripe webhooks: which events the store acts on (docs.stripe.com/api/events/types).
describe('Stripe events in the gateway words', () => {
  it('payment_intent.succeeded, .payment_failed and .canceled carry their payment', () => {
    const succeeded = gatewayEventOf(fixture('event-payment-intent-succeeded.json'));
    expect(succeeded).toMatchObject({
      id: 'evt_3QZk8vF2mN7pLr4T1cE2gH4j',
      type: 'payment.succeeded',
      providerType: 'payment_intent.succeeded',
      createdAt: new Date(1763901662 * 1000),
      payment: {
        ref: 'pi_3QZk8vF2mN7pLr4T1aB6cD9e',
        status: 'succeeded',
        amountCents: 2500,
        orderId: '7d1f3c2a-5b8e-4f6a-9c0d-2e4b6a8c0f13',
        failure: null,
      },
    });
    expect(gatewayEventOf(fixture('event-payment-intent-payment-failed.json'))).toMatchObject({
      type: 'payment.failed',
      payment: { status: 'requires_payment_method', failure: 'card_declined' },
    });
    expect(gatewayEventOf(fixture('event-payment-intent-canceled.json'))).toMatchObject({
      type: 'payment.canceled',
      payment: { status: 'canceled', failure: null },
    });
  });

  it('other events are "other", with no payment when their object is not a PaymentIntent', () => {
    const event = fixture('event-payment-intent-succeeded.json') as Record<string, unknown>;
    const processing = gatewayEventOf({ ...event, type: 'payment_intent.processing' });
    expect(processing).toMatchObject({ type: 'other', payment: { status: 'succeeded' } });
    const charge = gatewayEventOf({
      ...event,
      type: 'charge.succeeded',
      data: { object: { id: 'ch_1', object: 'charge' } },
    });
    expect(charge).toMatchObject({
      type: 'other',
      providerType: 'charge.succeeded',
      payment: null,
    });
  });

  it('a signed body that is not an event is invalid', () => {
    for (const body of [[], null, 'evt_1', { id: 'evt_1', object: 'charge' }]) {
      expect(() => gatewayEventOf(body)).toThrow(Invalid);
    }
  });
});
