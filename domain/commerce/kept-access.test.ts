import { describe, expect, it } from 'vitest';
import { type BoughtLine, isKeptLine, keptAccess } from './kept-access.ts';

// Issue 39 (decision 038): access follows the lines a buyer paid for and kept. A refunded line's
// access ends unless another paid, kept line of the same title gives it; then it lasts as long
// as that line gives.

const DAY = 86_400_000;
const now = new Date(Date.UTC(2026, 11, 6, 12));
const line = (overrides: Partial<BoughtLine> = {}): BoughtLine => ({
  orderId: 'a',
  orderStatus: 'fulfilled',
  paidAt: new Date(now.getTime() - DAY),
  offeringType: 'digital',
  durationDays: null,
  refundStatus: null,
  ...overrides,
});

describe('a line the buyer keeps', () => {
  it('is paid, gives access and is not refunded nor on its way back', () => {
    expect(isKeptLine(line())).toBe(true);
    expect(isKeptLine(line({ orderStatus: 'paid' }))).toBe(true);
    expect(isKeptLine(line({ refundStatus: 'requested' }))).toBe(true);
    expect(isKeptLine(line({ refundStatus: 'refused' }))).toBe(true);
    expect(isKeptLine(line({ refundStatus: 'approved' }))).toBe(false);
    expect(isKeptLine(line({ refundStatus: 'refunded' }))).toBe(false);
    expect(isKeptLine(line({ orderStatus: 'refunded' }))).toBe(false);
    expect(isKeptLine(line({ orderStatus: 'pending', paidAt: null }))).toBe(false);
    expect(isKeptLine(line({ offeringType: 'print' }))).toBe(false);
  });
});

describe('the access that stays when a line is given back', () => {
  it('none when no other line is kept: refunded ⇒ access ends', () => {
    expect(keptAccess([], now)).toBeNull();
    expect(keptAccess([line({ refundStatus: 'refunded' })], now)).toBeNull();
  });

  it('another kept purchase of the title: paid and kept ⇒ access stays, for as long as it gives', () => {
    expect(keptAccess([line({ orderId: 'b' })], now)).toEqual({ orderId: 'b', expiresAt: null });
    const rental = line({ orderId: 'r', durationDays: 180 });
    expect(keptAccess([rental], now)).toEqual({
      orderId: 'r',
      expiresAt: new Date(rental.paidAt!.getTime() + 180 * DAY),
    });
  });

  it('the longest wins (for life over a rental); an ended rental gives nothing', () => {
    const rental = line({ orderId: 'r', durationDays: 180 });
    expect(keptAccess([rental, line({ orderId: 'b' })], now)?.orderId).toBe('b');
    expect(keptAccess([line({ orderId: 'b' }), rental], now)?.orderId).toBe('b');
    const ended = line({
      orderId: 'old',
      durationDays: 30,
      paidAt: new Date(now.getTime() - 31 * DAY),
    });
    expect(keptAccess([ended], now)).toBeNull();
  });
});
