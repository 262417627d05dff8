import Stripe from 'stripe';

// Stripe signs each webhook delivery (docs.stripe.com/webhooks#verify-manually):
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`. Stripe's
// library both checks it (StripeGateway.parseEvent) and, for tests and replays, writes it.

/** The header Stripe would send for this body at this time (tests, replaying an event). */
export function stripeSignatureHeader(rawBody: string, secret: string, at: Date): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload: rawBody,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
}
