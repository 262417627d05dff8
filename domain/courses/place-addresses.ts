// Issue 20: the addresses a bookstore pastes to keep places in a section for students.

/** Issue 20: at most this many addresses in one submission; more is refused, not cut. */
export const MAX_PLACE_ADDRESSES = 500;

/** An address as it was written (trimmed), and the key it is compared by (lower case). */
export type PlaceAddress = { address: string; key: string };

export type PlaceAddressesOutcome =
  | { ok: true; addresses: PlaceAddress[]; repeated: number }
  | { ok: false; problem: 'empty' }
  | { ok: false; problem: 'tooMany'; count: number; max: number }
  | { ok: false; problem: 'invalid'; invalid: string[] };

// An e-mail address as a person types one: a plain local part (no quotes, no dot at either
// end, no two dots together) and a domain of at least two labels of letters, digits and inner
// hyphens. Longer than 254 characters is not an address (RFC 5321).
const LOCAL = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const LABEL = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

export function isPlaceAddress(value: string): boolean {
  if (value.length > 254) return false;
  const at = value.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  const labels = value.slice(at + 1).split('.');
  return LOCAL.test(value.slice(0, at)) && labels.length >= 2 && labels.every((l) => LABEL.test(l));
}

/**
 * Issue 20: the addresses of one submission, one a line or separated by commas, semicolons or
 * spaces; trimmed, compared without case, each once (in the order first written). Empty,
 * more than `max` addresses, or any that is not an e-mail address: refused, with every bad
 * one named, so that the whole submission can change nothing.
 */
export function parsePlaceAddresses(
  text: string,
  max: number = MAX_PLACE_ADDRESSES,
): PlaceAddressesOutcome {
  const words = text.split(/[\s,;]+/u).filter((word) => word !== '');
  if (words.length === 0) return { ok: false, problem: 'empty' };
  const seen = new Map<string, string>();
  for (const word of words) {
    const key = word.toLowerCase();
    if (!seen.has(key)) seen.set(key, word);
  }
  if (seen.size > max) return { ok: false, problem: 'tooMany', count: seen.size, max };
  const invalid = [...seen.values()].filter((address) => !isPlaceAddress(address));
  if (invalid.length > 0) return { ok: false, problem: 'invalid', invalid };
  return {
    ok: true,
    addresses: [...seen].map(([key, address]) => ({ address, key })),
    repeated: words.length - seen.size,
  };
}

/** An account found by one of the addresses, and whether its address is proved. */
export type PlaceAccount = { userId: number; key: string; verified: boolean };

/**
 * Issue 20: "a verified address is how a new account finds the sections the bookstore has
 * already put it in." An address whose account has proved it joins the section now; any
 * other (no account, or one that has not proved the address yet) is a place kept for it,
 * taken when that address is proved (section-invitations.ts).
 */
export function sortPlaceAddresses(
  addresses: PlaceAddress[],
  accounts: PlaceAccount[],
): { members: { userId: number; key: string }[]; places: PlaceAddress[] } {
  const verified = new Map(
    accounts.filter((a) => a.verified).map((a) => [a.key.toLowerCase(), a.userId]),
  );
  const members: { userId: number; key: string }[] = [];
  const places: PlaceAddress[] = [];
  for (const entry of addresses) {
    const userId = verified.get(entry.key);
    if (userId === undefined) places.push(entry);
    else members.push({ userId, key: entry.key });
  }
  return { members, places };
}

/** The member roles a place may carry (the `section_invitations_role` check). */
export const PLACE_ROLES = ['student', 'professor', 'teaching_assistant'] as const;
export type PlaceRole = (typeof PLACE_ROLES)[number];
