// DRM rules of the reader (spec 1 §3 product drm: offlinePercent, copyPercentage,
// printAllowancePercent; spec 1 §5 and spec 2 §9: shown only when greater than 0, rounded to
// 0 decimals). Copying is counted in characters of the book's text, printing in pages
// (print-pages.ts); both limits are a share of what the server measured in the file, rounded
// down, except that a book that allows printing allows at least one page.

/**
 * The percentage as the reader shows it: rounded to 0 decimals, and null (not shown) unless
 * greater than 0 (spec 1 §5, spec 2 §9).
 */
export function shownDrmPercent(percent: number | null): number | null {
  if (percent === null || !Number.isFinite(percent) || percent <= 0) return null;
  return Math.round(percent);
}

/**
 * How many units (characters or pages) of `total` a percentage allows: the exact percentage
 * (stored with two decimals), not the rounded one shown, rounded down to whole units. No
 * percentage, or 0, allows nothing.
 */
export function allowanceLimit(percent: number | null, total: number): number {
  if (percent === null || !(percent > 0) || total <= 0) return 0;
  // In hundredths of a percent, so 12.5 % of 1000 is exactly 125 (no binary fraction).
  const hundredths = Math.round(Math.min(percent, 100) * 100);
  return Math.floor((total * hundredths) / 10_000);
}

/**
 * How many pages a print percentage allows of a book of `pages` pages: the share rounded
 * down, but at least one page when the percentage is above 0 (issue 13: 25 % of a 3-page PDF
 * rounded down to no page at all, so printing could never succeed).
 */
export function printLimit(percent: number | null, pages: number): number {
  if (percent === null || !(percent > 0) || pages <= 0) return 0;
  return Math.max(1, allowanceLimit(percent, pages));
}

export type AllowanceState = { limit: number; used: number };

export type RefusalReason =
  | 'reading.copy.refused'
  | 'reading.print.refused'
  | 'reading.copy.notAllowed'
  | 'reading.print.notAllowed';

export type AllowanceDecision =
  | { allowed: true; used: number; remaining: number }
  | { allowed: false; reason: RefusalReason; remaining: number };

/**
 * Whether `requested` more units fit under the limit, and what remains after. The database
 * applies the same test in the one statement that counts them (service.ts), so concurrent
 * requests never pass the limit together; this states the rule and words the answer.
 */
export function decideAllowance(
  kind: 'copy' | 'print',
  state: AllowanceState,
  requested: number,
): AllowanceDecision {
  const remaining = Math.max(0, state.limit - state.used);
  // A book whose allowance is nothing says so, rather than that it has been used up.
  if (state.limit <= 0) return { allowed: false, reason: `reading.${kind}.notAllowed`, remaining };
  if (requested <= 0 || requested > remaining) {
    return { allowed: false, reason: `reading.${kind}.refused`, remaining };
  }
  return { allowed: true, used: state.used + requested, remaining: remaining - requested };
}
