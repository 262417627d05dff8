import { describe, expect, it } from 'vitest';
import { cardBrandName, cardBrandOf, paidWithMessage, paymentCardOf } from './payment-card.ts';

describe('the card of a payment (issue 19: the order says the last four digits)', () => {
  it('issue 19: keeps only the brand and the last four digits of the test card 4242…', () => {
    expect(paymentCardOf('4242424242424242')).toEqual({ brand: 'visa', last4: '4242' });
  });
  it('issue 19: names brands by their leading digits, in Stripe’s names', () => {
    expect(cardBrandOf('5555555555554444')).toBe('mastercard');
    expect(cardBrandOf('2223003122003222')).toBe('mastercard');
    expect(cardBrandOf('378282246310005')).toBe('amex');
    expect(cardBrandOf('6011111111111117')).toBe('discover');
    expect(cardBrandOf('9999999999999995')).toBe('unknown');
  });
  it('issue 19: no card is kept from something that is not a card number', () => {
    expect(paymentCardOf('42')).toBeNull();
  });
  it('issue 19: a brand is shown by its own name; an unknown one by none', () => {
    expect(cardBrandName('visa')).toBe('Visa');
    expect(cardBrandName('amex')).toBe('American Express');
    expect(cardBrandName('unknown')).toBeNull();
  });
  it('issue 19: the order says which card paid, by brand and last four', () => {
    expect(paidWithMessage({ brand: 'visa', last4: '4242' })).toEqual({
      key: 'order.card',
      params: { brand: 'Visa', last4: '4242' },
    });
    expect(paidWithMessage({ brand: 'unknown', last4: '0005' })).toEqual({
      key: 'order.cardNoBrand',
      params: { last4: '0005' },
    });
  });
});
