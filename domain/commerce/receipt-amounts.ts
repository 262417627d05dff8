// The amounts a receipt shows (issue 20: "subtotal, platform fee, tax if any, total"), in
// integer cents: each line, then subtotal, the platform fee, tax only when the order carries
// some, and the total, which is always the sum of the rows above it.

export type ReceiptRow = { key: 'subtotal' | 'fee' | 'tax' | 'total'; cents: number };

export function receiptAmounts(order: {
  lineCents: readonly number[];
  feeCents: number;
  taxCents?: number;
}): ReceiptRow[] {
  const subtotal = order.lineCents.reduce((sum, cents) => sum + cents, 0);
  const tax = order.taxCents ?? 0;
  return [
    { key: 'subtotal', cents: subtotal },
    { key: 'fee', cents: order.feeCents },
    ...(tax > 0 ? [{ key: 'tax' as const, cents: tax }] : []),
    { key: 'total', cents: subtotal + order.feeCents + tax },
  ];
}
