import { createHmac, timingSafeEqual } from 'node:crypto';
import { InvalidSignature } from './payment-gateway.ts';

// Stripe signs each webhook delivery (docs.stripe.com/webhooks#verify-manually):
// `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`, keyed with
// the endpoint's signing secret (`whsec_…`, used as it is). While a secret is being rolled
// the header carries one v1 per active secret; any one of them may match.

/** How far the signed time may be from ours: a captured delivery cannot be replayed later. */
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/** Throws InvalidSignature unless the header signs this exact body, recently, with the secret. */
export function verifyStripeSignature(
  rawBody: string,
  header: string | null,
  secret: string,
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): void {
  if (!header) throw new InvalidSignature('no Stripe-Signature header');
  let timestamp: string | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && timestamp === null) timestamp = value;
    else if (key === 'v1') signatures.push(value);
  }
  if (timestamp === null || !/^\d{1,12}$/.test(timestamp)) {
    throw new InvalidSignature('no timestamp');
  }
  if (signatures.length === 0) throw new InvalidSignature('no v1 signature');
  const expected = signatureOf(secret, timestamp, rawBody);
  const matches = signatures.some(
    (hex) => /^[0-9a-fA-F]{64}$/.test(hex) && timingSafeEqual(Buffer.from(hex, 'hex'), expected),
  );
  if (!matches) throw new InvalidSignature('no signature matches the body');
  if (Math.abs(now.getTime() / 1000 - Number(timestamp)) > toleranceSeconds) {
    throw new InvalidSignature('timestamp outside the tolerance');
  }
}

/** The header Stripe would send for this body at this time (tests, replaying an event). */
export function stripeSignatureHeader(rawBody: string, secret: string, at: Date): string {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  return `t=${timestamp},v1=${signatureOf(secret, timestamp, rawBody).toString('hex')}`;
}

function signatureOf(secret: string, timestamp: string, rawBody: string): Buffer {
  return createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest();
}
