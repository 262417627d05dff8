import { STRIPE_WEBHOOK_PATH } from '#api/payments/webhooks.ts';

// Unsafe requests that hold no session and so no CSRF token: their sender signs each one
// instead, and the handler checks that signature before it changes anything (decision 007).
// Exact paths only: nothing below them and no other spelling is exempt.
const EXEMPT_PATHS: ReadonlySet<string> = new Set([STRIPE_WEBHOOK_PATH]);

export function isCsrfExempt(pathname: string): boolean {
  return EXEMPT_PATHS.has(pathname);
}
