import { describe, expect, it } from 'vitest';
import { receiptAmounts } from './receipt-amounts.ts';

describe('receiptAmounts (issue 20: subtotal, platform fee, tax if any, total)', () => {
  it('issue 20: lines make the subtotal; fee and total follow; no tax row without tax', () => {
    expect(receiptAmounts({ lineCents: [4399, 3599], feeCents: 199 })).toEqual([
      { key: 'subtotal', cents: 7998 },
      { key: 'fee', cents: 199 },
      { key: 'total', cents: 8197 },
    ]);
  });

  it('issue 20: tax shows only when the order carries some', () => {
    const rows = receiptAmounts({ lineCents: [1000], feeCents: 0, taxCents: 80 });
    expect(rows.map((row) => row.key)).toEqual(['subtotal', 'fee', 'tax', 'total']);
    expect(rows.at(-1)).toEqual({ key: 'total', cents: 1080 });
  });

  it('issue 20: the parts always sum to the total', () => {
    for (const [lines, fee, tax] of [
      [[0], 0, 0],
      [[1, 2, 3], 199, 0],
      [[12345, 99], 0, 1234],
    ] as [number[], number, number][]) {
      const rows = receiptAmounts({ lineCents: lines, feeCents: fee, taxCents: tax });
      const total = rows.find((row) => row.key === 'total')!.cents;
      const parts = rows.filter((row) => row.key !== 'total').reduce((s, r) => s + r.cents, 0);
      expect(parts).toBe(total);
    }
  });

  it('issue 20: an order of no lines and no fee is zero', () => {
    expect(receiptAmounts({ lineCents: [], feeCents: 0 }).at(-1)).toEqual({
      key: 'total',
      cents: 0,
    });
  });
});
