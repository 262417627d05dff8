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
    // Every doubled digit, 0 to 9, and the undoubled ones.
    expect(passesLuhn('00102030405060708095')).toBe(true);
    expect(passesLuhn('00102030405060708090')).toBe(false);
    expect(passesLuhn('5555555555554444')).toBe(true);
  });

  it('take 12 to 19 digits, no more, no less, and nothing but digits', () => {
    // Twenty digits that pass Luhn (leading zeros add nothing): still too long.
    expect(card('0000 4242 4242 4242 4242')).toEqual({ ok: false, reason: 'invalid_number' });
    expect(card('000 4242 4242 4242 4242')).toEqual({ ok: true, result: 'succeeded' });
    expect(card('x4242 4242 4242 4242')).toEqual({ ok: false, reason: 'invalid_number' });
  });

  it('take a month from 1 to 12, a whole one, and two- or four-digit years', () => {
    const expiry = (expMonth: number, expYear: number) =>
      card('4242424242424242', { expMonth, expYear });
    expect(expiry(0, 2030)).toEqual({ ok: false, reason: 'invalid_expiry' });
    expect(expiry(1, 2030)).toEqual({ ok: true, result: 'succeeded' });
    expect(expiry(12, 2030)).toEqual({ ok: true, result: 'succeeded' });
    expect(expiry(6.5, 2030)).toEqual({ ok: false, reason: 'invalid_expiry' });
    expect(expiry(6, 2030.5)).toEqual({ ok: false, reason: 'invalid_expiry' });
    expect(expiry(6, 99)).toEqual({ ok: true, result: 'succeeded' }); // 2099
    expect(expiry(6, 100)).toEqual({ ok: false, reason: 'expired_card' }); // the year 100
  });

  it('expire at the first instant of the month after the card’s month (UTC)', () => {
    const at = (iso: string) =>
      testCardOutcome(
        { number: '4242424242424242', expMonth: 11, expYear: 2026, cvc: '123' },
        new Date(iso),
      );
    expect(at('2026-11-30T23:59:59.999Z')).toEqual({ ok: true, result: 'succeeded' });
    expect(at('2026-12-01T00:00:00.000Z')).toEqual({ ok: false, reason: 'expired_card' });
  });

  it('take a CVC of three or four digits only', () => {
    expect(card('4242424242424242', { cvc: '1234' })).toEqual({ ok: true, result: 'succeeded' });
    expect(card('4242424242424242', { cvc: '12345' })).toEqual({
      ok: false,
      reason: 'invalid_cvc',
    });
    expect(card('4242424242424242', { cvc: 'a123' })).toEqual({
      ok: false,
      reason: 'invalid_cvc',
    });
  });
});
