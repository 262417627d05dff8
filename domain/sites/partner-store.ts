// A bookstore partner's store (spec 1 §4 Partner hand-off; spec 2 §7 Follett-style handoff):
// the organisation's partnerStoreUrl, used only when it is a plain http(s) address.

/** The partner store's address, when it is an absolute http(s) URL without credentials. */
export function partnerStoreUrl(raw: string | null): URL | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
  if (url.username || url.password) return null;
  return url;
}

/** Where pages may post forms besides our own origin: the partner stores (CSP form-action). */
export function partnerStoreOrigin(raw: string | null): string | null {
  return partnerStoreUrl(raw)?.origin ?? null;
}
