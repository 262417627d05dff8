import { describe, expect, it } from 'vitest';
import { canMove, ORDER_STATUSES } from './order-status.ts';
import { salesDelta } from './sales-counter.ts';

describe('issue 13: Best Sellers count what was paid for, until it is refunded', () => {
  it('paying counts one sale per item; fulfilling does not count it again', () => {
    expect(salesDelta('pending', 'paid')).toBe(1);
    expect(salesDelta('paid', 'fulfilled')).toBe(0);
  });

  it('a refund takes the sale back, whether the order was fulfilled or not', () => {
    expect(salesDelta('paid', 'refunded')).toBe(-1);
    expect(salesDelta('fulfilled', 'refunded')).toBe(-1);
  });

  it('canceling a pending order never counted', () => {
    expect(salesDelta('pending', 'canceled')).toBe(0);
  });

  it('over any allowed path the count ends at 1 for a sold order and 0 otherwise', () => {
    const paths: string[][] = [
      ['pending', 'paid', 'fulfilled'],
      ['pending', 'paid', 'refunded'],
      ['pending', 'paid', 'fulfilled', 'refunded'],
      ['pending', 'canceled'],
    ];
    for (const path of paths) {
      let count = 0;
      for (let i = 1; i < path.length; i += 1) {
        const [from, to] = [path[i - 1], path[i]] as [never, never];
        expect(canMove(from, to)).toBe(true);
        count += salesDelta(from, to);
      }
      const last = path.at(-1)!;
      expect(count, path.join(' → ')).toBe(last === 'paid' || last === 'fulfilled' ? 1 : 0);
    }
    expect(ORDER_STATUSES).toContain('refunded');
  });
});
