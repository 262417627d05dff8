// How a paid item reaches its buyer (issue 4, Fulfilment; spec 2 §9).

const DAY_MS = 86_400_000;

export type Fulfilment = 'own' | 'ship' | 'print';

/**
 * What paying for an offering starts: digital access is owned at once; a physical copy ships
 * from stock; a print-on-demand copy is printed first. A combo is owned and ships.
 */
export function fulfilmentsOf(offeringType: string): Fulfilment[] {
  switch (offeringType) {
    case 'digital':
      return ['own'];
    case 'combo':
      return ['own', 'ship'];
    case 'print':
      return ['print'];
    default:
      return ['ship'];
  }
}

/** A rental is due back 7 days after the course's add/drop date. */
export function rentalDueAt(addDropDate: Date): Date {
  return new Date(addDropDate.getTime() + 7 * DAY_MS);
}

/** `days` business days (Monday to Friday, UTC) after `from`. */
export function addBusinessDays(from: Date, days: number): Date {
  let at = from.getTime();
  let left = days;
  while (left > 0) {
    at += DAY_MS;
    const weekday = new Date(at).getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return new Date(at);
}

/** Print-on-demand shipping: 7 - 10 business days (spec 2 §9). */
export const PRINT_DELIVERY_BUSINESS_DAYS = { earliest: 7, latest: 10 } as const;

export function printDeliveryWindow(paidAt: Date): { earliest: Date; latest: Date } {
  return {
    earliest: addBusinessDays(paidAt, PRINT_DELIVERY_BUSINESS_DAYS.earliest),
    latest: addBusinessDays(paidAt, PRINT_DELIVERY_BUSINESS_DAYS.latest),
  };
}

/** Access that ends: `durationDays` after it starts; perpetual when there is no duration. */
export function accessEndsAt(startsAt: Date, durationDays: number | null): Date | null {
  return durationDays ? new Date(startsAt.getTime() + durationDays * DAY_MS) : null;
}

/**
 * The platform fee of a transaction (spec 1 §3 platformFeeFeatures; spec 2 §9): charged once
 * per transaction, when the organisation enables it and the subtotal reaches its threshold.
 * It is non-refundable.
 */
export function platformFeeCents(
  fee: { enabled: boolean; feeCents: number; thresholdCents: number } | null,
  subtotalCents: number,
): number {
  if (!fee?.enabled || subtotalCents <= 0) return 0;
  // A fee configured below zero is no discount: nothing is charged.
  return subtotalCents >= fee.thresholdCents ? Math.max(0, fee.feeCents) : 0;
}

/**
 * The shipping an order pays (issue 38, "Shipping, tax and fees said honestly"): the configured
 * rate, once per order, when it posts something (a print copy, print on demand, an item);
 * 0 is free shipping, said as "Free". Null when nothing is posted: no shipping line at all.
 */
export function shippingCents(offeringTypes: readonly string[], rateCents: number): number | null {
  if (!needsShipping(offeringTypes)) return null;
  return Number.isInteger(rateCents) && rateCents > 0 ? rateCents : 0;
}

/** Whether an order has something to post, and so needs a shipping address. */
export function needsShipping(offeringTypes: readonly string[]): boolean {
  return offeringTypes.some((type) => fulfilmentsOf(type).some((f) => f !== 'own'));
}
