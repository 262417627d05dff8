import { describe, expect, it } from 'vitest';
import { translate } from '#i18n/translate.ts';
import { receiptAmounts, receiptRowValue } from './receipt-amounts.ts';

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

  it('issue 38: an order that posts something has a shipping line, free said as Free', () => {
    expect(receiptAmounts({ lineCents: [3599], feeCents: 199, shippingCents: 599 })).toEqual([
      { key: 'subtotal', cents: 3599 },
      { key: 'fee', cents: 199 },
      { key: 'shipping', cents: 599 },
      { key: 'noTax', cents: 0 },
      { key: 'total', cents: 4397 },
    ]);
    const free = receiptAmounts({ lineCents: [3599], feeCents: 0, shippingCents: 0 });
    expect(free.map((row) => row.key)).toEqual(['subtotal', 'shipping', 'noTax', 'total']);
    const money = (cents: number) => `$${(cents / 100).toFixed(2)}`;
    const en = (id: string) => translate('en', id);
    expect(receiptRowValue(free[1]!, money, en)).toBe('Free');
    expect(receiptRowValue(free[1]!, money, (id) => translate('fr-CA', id))).toBe('Gratuite');
    expect(receiptRowValue({ key: 'shipping', cents: 599 }, money, en)).toBe('$5.99');
    // A zero that is not shipping stays an amount.
    expect(receiptRowValue({ key: 'noTax', cents: 0 }, money, en)).toBe('$0.00');
    // Nothing posted: no shipping line at all.
    expect(
      receiptAmounts({ lineCents: [3599], feeCents: 0, shippingCents: null }).map((r) => r.key),
    ).toEqual(['subtotal', 'noTax', 'total']);
  });

  it('issue 20: the parts always sum to the total', () => {
    for (const [lines, fee, tax] of [
      [[0], 0, 0],
      [[1, 2, 3], 199, 0],
      [[12345, 99], 0, 1234],
      [[500], 199, 40],
    ] as [number[], number, number][]) {
      const rows = receiptAmounts({
        lineCents: lines,
        feeCents: fee,
        taxCents: tax,
        shippingCents: tax > 0 ? 599 : null,
      });
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
