// The amounts an order shows (issue 20: "subtotal, platform fee, tax if any, total"; issue 38:
// said honestly), in integer cents: the subtotal of its lines; the platform fee only when one
// applies; the tax when the order carries some, else the plain statement that none was charged
// (never silence); the shipping when it posts something ("Free" at a rate of 0); and the
// total, always the sum of the rows above it. The checkout, the order
// page, the receipt and its PDF, and the order mail all show an order's amounts from here.

// Issue 39: an order with refunded lines shows what was refunded and the net total after it.

export type ReceiptRow = {
  key: 'subtotal' | 'fee' | 'shipping' | 'tax' | 'noTax' | 'total' | 'refunded' | 'net';
  cents: number;
};

export function receiptAmounts(order: {
  lineCents: readonly number[];
  feeCents: number;
  /** What posting it costs (shippingCents in fulfilment-rules.ts); null: nothing is posted. */
  shippingCents?: number | null;
  taxCents?: number;
  /** What its refunds gave back (issue 39); nothing shown when 0. */
  refundedCents?: number;
}): ReceiptRow[] {
  const subtotal = order.lineCents.reduce((sum, cents) => sum + cents, 0);
  const tax = order.taxCents ?? 0;
  const shipping = order.shippingCents ?? null;
  const total = subtotal + order.feeCents + (shipping ?? 0) + tax;
  const refunded = order.refundedCents ?? 0;
  return [
    { key: 'subtotal', cents: subtotal },
    ...(order.feeCents > 0 ? [{ key: 'fee' as const, cents: order.feeCents }] : []),
    ...(shipping !== null ? [{ key: 'shipping' as const, cents: shipping }] : []),
    tax > 0 ? { key: 'tax', cents: tax } : { key: 'noTax', cents: 0 },
    { key: 'total', cents: total },
    ...(refunded > 0
      ? [
          { key: 'refunded' as const, cents: refunded },
          { key: 'net' as const, cents: total - refunded },
        ]
      : []),
  ];
}

/** A row's amount in words: free shipping is "Free", never "$0.00"; the rest in money. */
export function receiptRowValue(
  row: ReceiptRow,
  money: (cents: number) => string,
  say: (id: string) => string,
): string {
  if (row.key === 'refunded') return `−${money(row.cents)}`;
  return row.key === 'shipping' && row.cents === 0 ? say('orders.shippingFree') : money(row.cents);
}

/** The message id that names each row, in every view of an order. */
export const RECEIPT_ROW_LABELS: Record<ReceiptRow['key'], string> = {
  subtotal: 'cart.subtotal',
  fee: 'checkout.fee',
  shipping: 'orders.shipping',
  tax: 'orders.tax',
  noTax: 'orders.noTax',
  total: 'checkout.total',
  refunded: 'ops.refunds.receipt.refunded',
  net: 'ops.refunds.receipt.net',
};
