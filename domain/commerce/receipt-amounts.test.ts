import { describe, expect, it } from 'vitest';
import { receiptAmounts } from './receipt-amounts.ts';

describe('receiptAmounts (issue 20: subtotal, platform fee, tax if any, total; issue 38)', () => {
  it('issue 20: lines make the subtotal; fee and total follow', () => {
    expect(receiptAmounts({ lineCents: [4399, 3599], feeCents: 199 })).toEqual([
      { key: 'subtotal', cents: 7998 },
      { key: 'fee', cents: 199 },
      { key: 'noTax', cents: 0 },
      { key: 'total', cents: 8197 },
    ]);
  });

  it('issue 38: a platform fee line only when a fee applies', () => {
    expect(receiptAmounts({ lineCents: [4399], feeCents: 0 }).map((row) => row.key)).toEqual([
      'subtotal',
      'noTax',
      'total',
    ]);
  });

  it('issue 38: the tax when the order carries some, else that no sales tax was charged', () => {
    const rows = receiptAmounts({ lineCents: [1000], feeCents: 0, taxCents: 80 });
    expect(rows).toEqual([
      { key: 'subtotal', cents: 1000 },
      { key: 'tax', cents: 80 },
      { key: 'total', cents: 1080 },
    ]);
    expect(receiptAmounts({ lineCents: [1000], feeCents: 0, taxCents: 0 })[1]).toEqual({
      key: 'noTax',
      cents: 0,
    });
  });

  it('issue 20: the parts always sum to the total', () => {
    for (const [lines, fee, tax] of [
      [[0], 0, 0],
      [[1, 2, 3], 199, 0],
      [[12345, 99], 0, 1234],
      [[500], 199, 40],
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
