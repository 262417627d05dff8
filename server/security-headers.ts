// Security headers on every response (DESIGN.md, Requests): scripts from our origin plus
// exactly the inline scripts the page was rendered with (by hash), no framing by other
// sites, no MIME sniffing, HSTS in production. With Stripe configured (decision 007), Stripe.js
// and what it opens are allowed too, and nothing of Stripe's otherwise.

/**
 * Stripe.js is loaded from its JS hosts (never bundled); its card fields and wallet buttons
 * are frames from those hosts, a bank's 3-D Secure page comes through hooks.stripe.com, and
 * the script calls Stripe's API from the page.
 */
export const STRIPE_SOURCES = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
} as const;

type Options = {
  scriptHashes: string[];
  production: boolean;
  development: boolean;
  /** Stripe takes payments in this process: Stripe.js may run, frame and call out. */
  stripe: boolean;
  /** Other origins forms may post to: the bookstore partners' stores (spec 2 §7 handoff). */
  formActions?: readonly string[];
};

export function contentSecurityPolicy(options: Omit<Options, 'production'>): string {
  const stripe = (kind: keyof typeof STRIPE_SOURCES) =>
    options.stripe ? STRIPE_SOURCES[kind] : [];
  const scriptSrc = [
    "'self'",
    ...options.scriptHashes,
    ...(options.development ? ["'unsafe-eval'"] : []),
    ...stripe('script'),
  ].join(' ');
  const connectSrc = [
    "'self'",
    ...(options.development ? ['ws:', 'wss:'] : []),
    ...stripe('connect'),
  ].join(' ');
  return [
    "default-src 'self'",
    `script-src ${scriptSrc}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src ${connectSrc}`,
    // Without Stripe frames fall back to default-src 'self', as before.
    ...(options.stripe ? [`frame-src ${["'self'", ...stripe('frame')].join(' ')}`] : []),
    "frame-ancestors 'self'",
    ["form-action 'self'", ...(options.formActions ?? [])].join(' '),
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');
}

export function applySecurityHeaders(headers: Headers, options: Options): void {
  // A response with a stricter policy of its own (a book's SVG picture) keeps it: a browser
  // enforces every policy it is given, so the site's is added beside it.
  if (headers.has('Content-Security-Policy'))
    headers.append('Content-Security-Policy', contentSecurityPolicy(options));
  else headers.set('Content-Security-Policy', contentSecurityPolicy(options));
  headers.set('X-Content-Type-Options', 'nosniff');
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  headers.set('X-Frame-Options', 'SAMEORIGIN');
  headers.set('Cross-Origin-Opener-Policy', 'same-origin');
  // Apple Pay and Google Pay run the Payment Request API inside Stripe's wallet frame, which
  // needs the page to delegate `payment` to Stripe's origin.
  const payment = options.stripe ? '(self "https://js.stripe.com")' : '(self)';
  headers.set('Permissions-Policy', `camera=(), microphone=(), geolocation=(), payment=${payment}`);
  if (options.production)
    headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains');
}
