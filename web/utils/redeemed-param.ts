// The library says which title a code just unlocked (issue 38, Redeem): the standalone redeem
// form goes to the library link (spec 1 §4 Standalone redeem) with the product's id beside it.

export const REDEEMED_PARAM = 'redeemed';

/**
 * The library link with the redeemed product's id, when the link is a page of ours; a label's
 * library elsewhere is left as it is.
 */
export function withRedeemed(libraryLink: string, productId: number): string {
  if (!libraryLink.startsWith('/') || libraryLink.startsWith('//')) return libraryLink;
  const url = new URL(libraryLink, 'http://store.invalid');
  url.searchParams.set(REDEEMED_PARAM, String(productId));
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The redeemed product's id read back from the library's URL, or null. */
export function redeemedProductId(url: URL): number | null {
  const value = url.searchParams.get(REDEEMED_PARAM);
  return value && /^[1-9]\d{0,8}$/.test(value) ? Number(value) : null;
}
