// Why a typed code did not redeem (issue 19, Redeem: an unknown code, a used code and an
// expired code get different messages, and a hint when a letter O or I stands where a digit
// belongs). Pure: the service looks the code up and passes what it found.

/** What the store holds for the code as typed, or null when no code matches it. */
export type CodeOnRecord = { redeemedAt: Date | null; expiresAt: Date | null };

/** Which of the look-alike characters the typist confused, in the code that exists. */
export type LookalikeHint = 'digitZero' | 'digitOne' | 'letterO' | 'letterI';

export type RedeemFailure =
  | { reason: 'used'; messageKey: 'redeem.error.used' }
  | { reason: 'expired'; messageKey: 'redeem.error.expired' }
  | { reason: 'unknown'; messageKey: 'redeem.error.unknown' }
  | { reason: 'unknown'; messageKey: `redeem.error.unknown.${LookalikeHint}` };

/** The characters read alike: the letter and the digit, both ways. */
const SWAPS: Record<string, string> = { O: '0', '0': 'O', I: '1', '1': 'I' };

/**
 * At most this many look-alike characters are tried (2^8 codes): a longer run of Os and 0s
 * is no typo worth a hint.
 */
export const MAX_LOOKALIKE_POSITIONS = 8;

/**
 * The other codes the typed one could have meant, by reading any of its O, 0, I and 1 as
 * their look-alike (the typed code itself excluded), or none when there are too many.
 */
export function lookalikeCodes(typed: string): string[] {
  const positions = [...typed].flatMap((ch, i) => (ch in SWAPS ? [i] : []));
  if (positions.length > MAX_LOOKALIKE_POSITIONS) return [];
  const chars = [...typed];
  const codes: string[] = [];
  for (let mask = 1; mask < 1 << positions.length; mask += 1) {
    const variant = [...chars];
    positions.forEach((at, bit) => {
      if (mask & (1 << bit)) variant[at] = SWAPS[chars[at]!]!;
    });
    codes.push(variant.join(''));
  }
  return codes;
}

/** The hint for a typed code that differs from an existing one by look-alikes only. */
export function lookalikeHint(typed: string, existing: string): LookalikeHint | null {
  const a = [...typed];
  const b = [...existing];
  if (a.length !== b.length) return null;
  let hint: LookalikeHint | null = null;
  for (const [i, typedChar] of a.entries()) {
    if (typedChar === b[i]) continue;
    if (SWAPS[typedChar] !== b[i]) return null;
    // The first confusion names the hint: what the real code has at that place.
    hint ??= ({ '0': 'digitZero', '1': 'digitOne', O: 'letterO', I: 'letterI' } as const)[
      b[i] as '0' | '1' | 'O' | 'I'
    ];
  }
  return hint;
}

/** Where a code on record stands: what redeeming it now would meet, and what the checker shows. */
export type CodeStanding = 'redeemed' | 'expired' | 'unused';

/**
 * Redeemed once it has a redeemer, whatever its end date; otherwise expired from the instant of
 * its end date on (a code that ends at noon no longer redeems at noon); otherwise unused.
 */
export function codeStanding(found: CodeOnRecord, now: Date): CodeStanding {
  if (found.redeemedAt) return 'redeemed';
  if (found.expiresAt && found.expiresAt.getTime() <= now.getTime()) return 'expired';
  return 'unused';
}

/**
 * Why the code did not redeem: already used (never by whom), expired, or unknown — with the
 * look-alike hint when an existing code differs from the typed one by an O, 0, I or 1 only.
 * A code that is both used and expired reads as used: it was redeemed.
 */
export function redeemFailure(
  found: CodeOnRecord | null,
  now: Date,
  lookalike: { typed: string; existing: string } | null = null,
): RedeemFailure {
  const standing = found ? codeStanding(found, now) : null;
  if (standing === 'redeemed') return { reason: 'used', messageKey: 'redeem.error.used' };
  if (standing === 'expired') return { reason: 'expired', messageKey: 'redeem.error.expired' };
  const hint = lookalike ? lookalikeHint(lookalike.typed, lookalike.existing) : null;
  return hint
    ? { reason: 'unknown', messageKey: `redeem.error.unknown.${hint}` }
    : { reason: 'unknown', messageKey: 'redeem.error.unknown' };
}
