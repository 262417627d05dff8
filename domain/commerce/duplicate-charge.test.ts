import { describe, expect, it } from 'vitest';
import {
  DUPLICATE_WINDOW_MS,
  laterOf,
  linesKey,
  RECONCILE_FIRST_MS,
  reconcileDelayMs,
  repeatsOrder,
} from './duplicate-charge.ts';

// Issue 37, "Make money exactly-once across crashes": the same lines, the same buyer, two
// charges within minutes are one purchase paid twice; the later one is refunded.

const at = (minutes: number) => new Date(Date.UTC(2026, 11, 6, 10, 0) + minutes * 60_000);
const order = (id: string, userId: number, lines: string, paidMinute: number) => ({
  id,
  userId,
  lines,
  paidAt: at(paidMinute),
  createdAt: at(paidMinute - 1),
  kept: true,
});

describe('the lines of an order', () => {
  it('are the same whatever order the cart listed them in', () => {
    expect(linesKey([30, 4, 12])).toBe(linesKey([12, 30, 4]));
    expect(linesKey([30, 4, 12])).toBe('4,12,30');
  });

  it('count a repeated offering: two copies are not one', () => {
    expect(linesKey([7, 7])).not.toBe(linesKey([7]));
    expect(linesKey([7, 7])).toBe('7,7');
  });

  it('sort as numbers, not as text', () => {
    expect(linesKey([10, 9])).toBe('9,10');
  });
});

describe('a second order repeats the first', () => {
  it('when the same buyer paid for the same lines within the window, either way round', () => {
    const first = order('a', 1, '4,12', 0);
    expect(repeatsOrder(first, order('b', 1, '4,12', 14))).toBe(true);
    expect(repeatsOrder(order('b', 1, '4,12', 14), first)).toBe(true);
    expect(repeatsOrder(first, order('b', 1, '4,12', DUPLICATE_WINDOW_MS / 60_000))).toBe(true);
  });

  it('not once the window has passed', () => {
    expect(repeatsOrder(order('a', 1, '4', 0), order('b', 1, '4', 15.01))).toBe(false);
  });

  it('not for another buyer, other lines, itself or an order without lines', () => {
    const first = order('a', 1, '4,12', 0);
    expect(repeatsOrder(first, order('b', 2, '4,12', 1))).toBe(false);
    expect(repeatsOrder(first, order('b', 1, '4', 1))).toBe(false);
    expect(repeatsOrder(first, order('b', 1, '4,12,12', 1))).toBe(false);
    expect(repeatsOrder(first, { ...first })).toBe(false);
    expect(repeatsOrder(order('a', 1, '', 0), order('b', 1, '', 1))).toBe(false);
  });

  it('issue 39: not when either order has a line refunded (or on its way back): bought again after a refund is kept', () => {
    const refunded = { ...order('a', 1, '4', 0), kept: false };
    const again = order('b', 1, '4', 3);
    expect(repeatsOrder(refunded, again)).toBe(false);
    expect(repeatsOrder(again, refunded)).toBe(false);
    expect(repeatsOrder(order('a', 1, '4', 0), { ...again, kept: false })).toBe(false);
  });
});

describe('of two orders paid for the same lines, the one refunded', () => {
  it('is the one paid later, whichever is passed first', () => {
    const first = order('b', 1, '4', 0);
    const second = order('a', 1, '4', 3);
    expect(laterOf(first, second)).toBe(second);
    expect(laterOf(second, first)).toBe(second);
  });

  it('is the one paid later even when it was placed first', () => {
    const placedFirstPaidLater = { ...order('a', 1, '4', 5), createdAt: at(0) };
    const placedLaterPaidFirst = { ...order('b', 1, '4', 3), createdAt: at(1) };
    expect(laterOf(placedFirstPaidLater, placedLaterPaidFirst)).toBe(placedFirstPaidLater);
    expect(laterOf(placedLaterPaidFirst, placedFirstPaidLater)).toBe(placedFirstPaidLater);
  });

  it('is the one placed later when both were paid at the same instant', () => {
    const first = { ...order('b', 1, '4', 3), createdAt: at(0) };
    const second = { ...order('a', 1, '4', 3), createdAt: at(1) };
    expect(laterOf(first, second)).toBe(second);
    expect(laterOf(second, first)).toBe(second);
  });

  it('is decided by id when everything else is the same, the same either way', () => {
    const a = order('a', 1, '4', 3);
    const b = order('b', 1, '4', 3);
    expect(laterOf(a, b)).toBe(b);
    expect(laterOf(b, a)).toBe(b);
  });
});

describe('an open payment is asked about again', () => {
  it('after ten seconds while its order is young', () => {
    expect(reconcileDelayMs(0)).toBe(RECONCILE_FIRST_MS);
    expect(reconcileDelayMs(39_999)).toBe(10_000);
  });

  it('after a quarter of its order’s age once that is longer', () => {
    expect(reconcileDelayMs(60_000)).toBe(15_000);
    expect(reconcileDelayMs(60 * 60_000)).toBe(15 * 60_000);
  });
});
