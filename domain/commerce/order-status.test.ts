import { describe, expect, it } from 'vitest';
import { canMove, isFinal, ORDER_STATUSES } from './order-status.ts';

// Issue 4, Orders: pending → paid → fulfilled; canceled; refunded.
describe('order state machine', () => {
  it('allows the paths of a sale, a cancellation and a refund', () => {
    expect(canMove('pending', 'paid')).toBe(true);
    expect(canMove('paid', 'fulfilled')).toBe(true);
    expect(canMove('pending', 'canceled')).toBe(true);
    expect(canMove('paid', 'refunded')).toBe(true);
    expect(canMove('fulfilled', 'refunded')).toBe(true);
  });

  it('refuses to skip payment, to revive a canceled order or to pay twice', () => {
    expect(canMove('pending', 'fulfilled')).toBe(false);
    expect(canMove('canceled', 'paid')).toBe(false);
    expect(canMove('paid', 'paid')).toBe(false);
    expect(canMove('refunded', 'paid')).toBe(false);
    expect(canMove('fulfilled', 'canceled')).toBe(false);
  });

  it('knows which states are final', () => {
    expect(ORDER_STATUSES.filter(isFinal)).toEqual(['canceled', 'refunded']);
  });
});
