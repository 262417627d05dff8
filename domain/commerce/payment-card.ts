// The card a payment was made with, as the order page and mail name it (issue 19: "the payment
// method's last four digits"): its brand and last four digits, never more of the number.

export type PaymentCard = { brand: string; last4: string };

/**
 * The brand of a card number by its leading digits (the networks' published ranges), in
 * Stripe's names, so that both gateways report cards alike; 'unknown' for any other.
 */
export function cardBrandOf(digits: string): string {
  if (/^4/.test(digits)) return 'visa';
  if (/^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/.test(digits)) return 'mastercard';
  if (/^3[47]/.test(digits)) return 'amex';
  if (/^(6011|64[4-9]|65)/.test(digits)) return 'discover';
  if (/^35(2[89]|[3-8]\d)/.test(digits)) return 'jcb';
  if (/^3(0[0-5]|[689])/.test(digits)) return 'diners';
  if (/^62/.test(digits)) return 'unionpay';
  return 'unknown';
}

/** What is kept of a card number: its brand and last four digits. */
export function paymentCardOf(digits: string): PaymentCard | null {
  if (!/^\d{12,19}$/.test(digits)) return null;
  return { brand: cardBrandOf(digits), last4: digits.slice(-4) };
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  diners: 'Diners Club',
  unionpay: 'UnionPay',
  eftpos_au: 'eftpos',
};

/** A brand's own name (the same in every language), or null when the brand is not known. */
export function cardBrandName(brand: string): string | null {
  return BRAND_NAMES[brand] ?? null;
}

/** How the order page and mail say which card paid: 'Paid with Visa ending in 4242'. */
export function paidWithMessage(card: PaymentCard): {
  key: 'order.card' | 'order.cardNoBrand';
  params: Record<string, string>;
} {
  const brand = cardBrandName(card.brand);
  return brand
    ? { key: 'order.card', params: { brand, last4: card.last4 } }
    : { key: 'order.cardNoBrand', params: { last4: card.last4 } };
}
