// Security headers on every response (DESIGN.md, Requests): scripts from our origin plus
// exactly the inline scripts the page was rendered with (by hash), no framing by other
// sites, no MIME sniffing, HSTS in production.
export function applySecurityHeaders(
  headers: Headers,
  options: {
    scriptHashes: string[];
    production: boolean;
    development: boolean;
    /** Other origins forms may post to: the bookstore partners' stores (spec 2 §7 handoff). */
    formActions?: readonly string[];
  },
): void {
  const scriptSrc = [
    "'self'",
    ...options.scriptHashes,
    ...(options.development ? ["'unsafe-eval'"] : []),
  ].join(' ');
  const connectSrc = options.development ? "'self' ws: wss:" : "'self'";
  headers.set(
    'Content-Security-Policy',
    [
      "default-src 'self'",
      `script-src ${scriptSrc}`,
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data:",
      "font-src 'self'",
      `connect-src ${connectSrc}`,
      "frame-ancestors 'self'",
      ["form-action 'self'", ...(options.formActions ?? [])].join(' '),
      "base-uri 'self'",
      "object-src 'none'",
    ].join('; '),
  );
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'SAMEORIGIN');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)');
  if (options.production)
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}
