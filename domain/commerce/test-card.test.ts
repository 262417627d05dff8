import { describe, expect, it } from 'vitest';
import { passesLuhn, testCardOutcome } from './test-card.ts';

const now = new Date('2026-11-23T12:00:00Z');
const card = (number: string, over: Partial<Parameters<typeof testCardOutcome>[0]> = {}) =>
  testCardOutcome({ number, expMonth: 12, expYear: 2030, cvc: '123', ...over }, now);

// Issue 4, Checkout and payment: the test gateway's card numbers.
describe('test gateway cards', () => {
  it('behave like a provider test mode', () => {
    expect(card('4242 4242 4242 4242')).toEqual({ ok: true, result: 'succeeded' });
    expect(card('4000 0000 0000 0002')).toEqual({ ok: false, reason: 'card_declined' });
    expect(card('4000-0000-0000-9995')).toEqual({ ok: false, reason: 'insufficient_funds' });
    expect(card('4000002500003155')).toEqual({ ok: true, result: 'requires_action' });
  });

  it('reject mistyped numbers, past expiry dates and bad CVCs', () => {
    expect(card('4242 4242 4242 4241')).toEqual({ ok: false, reason: 'invalid_number' });
    expect(card('4242')).toEqual({ ok: false, reason: 'invalid_number' });
    expect(card('4242424242424242', { expMonth: 10, expYear: 2026 })).toEqual({
      ok: false,
      reason: 'expired_card',
    });
    expect(card('4242424242424242', { expMonth: 11, expYear: 26 })).toEqual({
      ok: true,
      result: 'succeeded',
    });
    expect(card('4242424242424242', { expMonth: 13 })).toEqual({
      ok: false,
      reason: 'invalid_expiry',
    });
    expect(card('4242424242424242', { cvc: '12' })).toEqual({ ok: false, reason: 'invalid_cvc' });
  });

  it('check digits with Luhn', () => {
    expect(passesLuhn('79927398713')).toBe(true);
    expect(passesLuhn('79927398710')).toBe(false);
  });
});
