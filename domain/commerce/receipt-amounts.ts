// The amounts an order shows (issue 20: "subtotal, platform fee, tax if any, total"; issue 38:
// said honestly), in integer cents: the subtotal of its lines; the platform fee only when one
// applies; the tax when the order carries some, else the plain statement that none was charged
// (never silence); and the total, always the sum of the rows above it. The checkout, the order
// page, the receipt and its PDF, and the order mail all show an order's amounts from here.

export type ReceiptRow = {
  key: 'subtotal' | 'fee' | 'tax' | 'noTax' | 'total';
  cents: number;
};

export function receiptAmounts(order: {
  lineCents: readonly number[];
  feeCents: number;
  taxCents?: number;
}): ReceiptRow[] {
  const subtotal = order.lineCents.reduce((sum, cents) => sum + cents, 0);
  const tax = order.taxCents ?? 0;
  return [
    { key: 'subtotal', cents: subtotal },
    ...(order.feeCents > 0 ? [{ key: 'fee' as const, cents: order.feeCents }] : []),
    tax > 0 ? { key: 'tax', cents: tax } : { key: 'noTax', cents: 0 },
    { key: 'total', cents: subtotal + order.feeCents + tax },
  ];
}

/** The message id that names each row, in every view of an order. */
export const RECEIPT_ROW_LABELS: Record<ReceiptRow['key'], string> = {
  subtotal: 'cart.subtotal',
  fee: 'checkout.fee',
  tax: 'orders.tax',
  noTax: 'orders.noTax',
  total: 'checkout.total',
};
