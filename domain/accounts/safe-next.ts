// `next` accepts same-origin paths only (DESIGN.md, Requests): an open redirect would let a
// phishing link land a freshly logged-in user on another site.
export function safeNextPath(next: string | null | undefined, fallback = '/'): string {
  if (!next || next.length > 2000) return fallback;
  if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
  // Control characters and backslashes are read as path separators by some browsers.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse
  if (/[\u0000-\u001f\\]/.test(next)) return fallback;
  try {
    const url = new URL(next, 'http://shelfmark.invalid');
    if (url.origin !== 'http://shelfmark.invalid') return fallback;
    return url.pathname + url.search + url.hash;
  } catch {
    return fallback;
  }
}
