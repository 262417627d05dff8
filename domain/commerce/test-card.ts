// The built-in test gateway's cards (issue 4), as a payment provider's test mode behaves:
// 4242 4242 4242 4242 succeeds, 4000 0000 0000 0002 is declined, 4000 0000 0000 9995 fails
// for insufficient funds, 4000 0025 0000 3155 asks the shopper to confirm. Any future expiry
// and any 3–4 digit CVC. Other numbers that pass the Luhn check succeed, like in test mode.

export type CardInput = { number: string; expMonth: number; expYear: number; cvc: string };

export type CardOutcome =
  | { ok: true; result: 'succeeded' | 'requires_action' }
  | {
      ok: false;
      reason:
        | 'invalid_number'
        | 'invalid_expiry'
        | 'expired_card'
        | 'invalid_cvc'
        | 'card_declined'
        | 'insufficient_funds';
    };

const SPECIAL: Record<string, CardOutcome> = {
  '4000000000000002': { ok: false, reason: 'card_declined' },
  '4000000000009995': { ok: false, reason: 'insufficient_funds' },
  '4000002500003155': { ok: true, result: 'requires_action' },
};

/** Digits only: shoppers type spaces and dashes. */
export function cardDigits(number: string): string {
  return number.replace(/[\s-]/g, '');
}

/** Luhn's doubled digit: 2 × d, its two digits added (7 → 14 → 5). */
const DOUBLED = [0, 2, 4, 6, 8, 1, 3, 5, 7, 9];

export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const digit = Number(digits[digits.length - 1 - i]);
    sum += i % 2 === 1 ? DOUBLED[digit]! : digit;
  }
  return sum % 10 === 0;
}

export function testCardOutcome(card: CardInput, now: Date): CardOutcome {
  const digits = cardDigits(card.number);
  if (!/^\d{12,19}$/.test(digits) || !passesLuhn(digits)) {
    return { ok: false, reason: 'invalid_number' };
  }
  const { expMonth, expYear } = card;
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12 || !Number.isInteger(expYear)) {
    return { ok: false, reason: 'invalid_expiry' };
  }
  const year = expYear < 100 ? 2000 + expYear : expYear;
  // A card is valid through the last day of its expiry month (UTC).
  if (Date.UTC(year, expMonth, 1) <= now.getTime()) return { ok: false, reason: 'expired_card' };
  if (!/^\d{3,4}$/.test(card.cvc)) return { ok: false, reason: 'invalid_cvc' };
  return SPECIAL[digits] ?? { ok: true, result: 'succeeded' };
}
