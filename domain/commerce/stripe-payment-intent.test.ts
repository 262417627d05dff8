import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  failureReasonOf,
  gatewayPaymentOf,
  paymentStatusOf,
  UnexpectedStripeObject,
} from './stripe-payment-intent.ts';

const fixture = (name: string) =>
  JSON.parse(readFileSync(new URL(`../../tests/fixtures/stripe/${name}`, import.meta.url), 'utf8'));

// Issue 4, Stripe gateway: Stripe's PaymentIntent read in the gateway's words
// (docs.stripe.com/payments/paymentintents/lifecycle).
describe('Stripe PaymentIntent statuses', () => {
  it('map onto the five gateway statuses', () => {
    expect(paymentStatusOf('requires_payment_method')).toBe('requires_payment_method');
    // Waiting for the confirm step, which brings a method.
    expect(paymentStatusOf('requires_confirmation')).toBe('requires_payment_method');
    expect(paymentStatusOf('requires_action')).toBe('requires_action');
    expect(paymentStatusOf('processing')).toBe('processing');
    // Authorised, not captured: no money yet.
    expect(paymentStatusOf('requires_capture')).toBe('processing');
    expect(paymentStatusOf('succeeded')).toBe('succeeded');
    expect(paymentStatusOf('canceled')).toBe('canceled');
    expect(paymentStatusOf('a_status_stripe_adds_later')).toBe('processing');
  });
});

describe('Stripe decline and error codes', () => {
  it('map onto the checkout messages (checkout.error.{reason})', () => {
    const cases: [Parameters<typeof failureReasonOf>[0], string][] = [
      [{ code: 'card_declined', decline_code: 'generic_decline' }, 'card_declined'],
      [{ code: 'card_declined', decline_code: 'do_not_honor' }, 'card_declined'],
      [{ code: 'card_declined', decline_code: 'insufficient_funds' }, 'insufficient_funds'],
      [{ code: 'card_declined', decline_code: 'expired_card' }, 'expired_card'],
      [{ code: 'expired_card' }, 'expired_card'],
      [{ code: 'incorrect_cvc' }, 'invalid_cvc'],
      [{ code: 'invalid_cvc' }, 'invalid_cvc'],
      [{ code: 'incorrect_number' }, 'invalid_number'],
      [{ code: 'invalid_number' }, 'invalid_number'],
      [{ code: 'invalid_expiry_month' }, 'invalid_expiry'],
      [{ code: 'invalid_expiry_year' }, 'invalid_expiry'],
      [{ code: 'payment_intent_authentication_failure' }, 'card_declined'],
      [{ code: 'processing_error' }, 'processing_error'],
      [{ code: 'something_new' }, 'processing_error'],
      [{}, 'processing_error'],
      [null, 'processing_error'],
    ];
    for (const [error, reason] of cases)
      expect([error, failureReasonOf(error)]).toEqual([error, reason]);
  });
});

describe('a Stripe PaymentIntent as a gateway payment', () => {
  it('a new intent waits for a method, knows its order and carries the client secret', () => {
    expect(gatewayPaymentOf(fixture('payment-intent-created.json'))).toEqual({
      ref: 'pi_3QZk8vF2mN7pLr4T1aB6cD9e',
      status: 'requires_payment_method',
      amountCents: 2500,
      currencyCode: 'USD',
      orderId: '7d1f3c2a-5b8e-4f6a-9c0d-2e4b6a8c0f13',
      clientSecret: 'pi_3QZk8vF2mN7pLr4T1aB6cD9e_secret_Xq7RbN2vK9mLw4TzPc8HdYs1f',
      failure: null,
      card: null,
    });
  });

  it('issue 19: an intent with its PaymentMethod expanded names the card: brand and last four', () => {
    const succeeded = fixture('payment-intent-confirm-succeeded.json');
    // As Stripe answers with expand[]=payment_method (docs.stripe.com/api/expanding_objects).
    const expanded = {
      ...succeeded,
      payment_method: {
        id: succeeded.payment_method,
        object: 'payment_method',
        type: 'card',
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 },
      },
    };
    expect(gatewayPaymentOf(expanded).card).toEqual({ brand: 'visa', last4: '4242' });
    // An id alone says nothing of the card.
    expect(gatewayPaymentOf(succeeded).card).toBeNull();
  });

  it('a declined intent says why; a later success does not carry the old error', () => {
    const declined = fixture('payment-intent-confirm-declined-402.json').error.payment_intent;
    expect(gatewayPaymentOf(declined)).toMatchObject({
      status: 'requires_payment_method',
      failure: 'card_declined',
    });
    const succeeded = { ...declined, status: 'succeeded' };
    expect(gatewayPaymentOf(succeeded)).toMatchObject({ status: 'succeeded', failure: null });
  });

  it('spec 2 §9 USD only: an intent in another currency, or not an intent, is unexpected', () => {
    const created = fixture('payment-intent-created.json');
    expect(() => gatewayPaymentOf({ ...created, currency: 'eur' })).toThrow(UnexpectedStripeObject);
    expect(() => gatewayPaymentOf({ ...created, object: 'charge' })).toThrow(
      UnexpectedStripeObject,
    );
    expect(() => gatewayPaymentOf({ ...created, amount: '2500' })).toThrow(UnexpectedStripeObject);
    expect(() => gatewayPaymentOf(null)).toThrow(UnexpectedStripeObject);
  });

  it('an intent without our metadata belongs to no order', () => {
    const created = fixture('payment-intent-created.json');
    expect(gatewayPaymentOf({ ...created, metadata: {} }).orderId).toBeNull();
  });
});
