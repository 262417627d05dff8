import { describe, expect, it } from 'vitest';
import { paymentFailureOf } from './payment-failure.ts';
import { FAILURE_REASONS } from './payment-gateway.ts';

describe('a payment failure carried in the checkout address', () => {
  it('every reason the gateways report, and the unfinished steps, come back as they are', () => {
    for (const reason of [...FAILURE_REASONS, 'requires_action', 'canceled']) {
      expect(paymentFailureOf(reason)).toBe(reason);
    }
  });

  it('anything else is no failure: the page never shows text taken from its address', () => {
    for (const raw of [null, undefined, '', 'Card_Declined', 'card_declined ', '<b>x</b>', 'key']) {
      expect(paymentFailureOf(raw)).toBeNull();
    }
  });
});
