import { createHash } from 'node:crypto';

const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script>/gi;

/**
 * CSP source expressions ('sha256-…') for every inline script of a rendered document. Pages
 * are allowed exactly the scripts they were rendered with, and a stored page needs no
 * per-response nonce — which is what lets one rendering serve every anonymous visitor.
 * React Router escapes `<` in the scripts it writes, and so does our JSON-LD, so no script
 * body contains `</script>`.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const attributes = match[1] ?? '';
    const body = match[2] ?? '';
    if (/\ssrc\s*=/i.test(attributes) || body === '') continue;
    hashes.add(`'sha256-${createHash('sha256').update(body, 'utf8').digest('base64')}'`);
  }
  return [...hashes];
}
