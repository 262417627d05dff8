import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { InvalidSignature } from './payment-gateway.ts';
import { stripeSignatureHeader, verifyStripeSignature } from './stripe-signature.ts';

const secret = 'whsec_test_5f2b8c1d9e4a7f3b6c0d2e8a1f4b7c9d';
const body = '{"id":"evt_1","object":"event","type":"payment_intent.succeeded"}';
const sentAt = new Date('2026-11-23T12:00:00Z');
const t = Math.floor(sentAt.getTime() / 1000);
const hmac = (key: string, payload: string) =>
  createHmac('sha256', key).update(payload).digest('hex');

// Issue 4, Stripe webhooks: Stripe-Signature is t=<unix>,v1=<HMAC-SHA256 of "<t>.<body>">
// (docs.stripe.com/webhooks#verify-manually); anything else is refused before a change.
describe('Stripe webhook signatures', () => {
  it('a body signed with the endpoint secret, just now, is accepted', () => {
    const header = `t=${t},v1=${hmac(secret, `${t}.${body}`)}`;
    expect(stripeSignatureHeader(body, secret, sentAt)).toBe(header);
    expect(() => verifyStripeSignature(body, header, secret, sentAt)).not.toThrow();
    // Within the 300 s tolerance on either side of our clock.
    expect(() =>
      verifyStripeSignature(body, header, secret, new Date(sentAt.getTime() + 300_000)),
    ).not.toThrow();
    expect(() =>
      verifyStripeSignature(body, header, secret, new Date(sentAt.getTime() - 300_000)),
    ).not.toThrow();
  });

  it('while a secret is rolled, any one of several v1 signatures may match; v0 is not read', () => {
    const old = hmac('whsec_old_secret', `${t}.${body}`);
    const header = `t=${t},v1=${old},v1=${hmac(secret, `${t}.${body}`)},v0=${'0'.repeat(64)}`;
    expect(() => verifyStripeSignature(body, header, secret, sentAt)).not.toThrow();
    const onlyV0 = `t=${t},v0=${hmac(secret, `${t}.${body}`)}`;
    expect(() => verifyStripeSignature(body, onlyV0, secret, sentAt)).toThrow(InvalidSignature);
  });

  it('a forged signature, another secret or a changed body is refused', () => {
    const header = stripeSignatureHeader(body, secret, sentAt);
    const refused = (b: string, h: string | null) => () =>
      verifyStripeSignature(b, h, secret, sentAt);
    expect(refused(body.replace('succeeded', 'canceled'), header)).toThrow(InvalidSignature);
    expect(refused(body, stripeSignatureHeader(body, 'whsec_other', sentAt))).toThrow(
      InvalidSignature,
    );
    expect(refused(body, `t=${t},v1=${'a'.repeat(64)}`)).toThrow(InvalidSignature);
    expect(refused(body, `t=${t},v1=not-hex`)).toThrow(InvalidSignature);
    // The timestamp is signed too: moving it to now breaks the signature.
    expect(refused(body, header.replace(`t=${t}`, `t=${t + 1}`))).toThrow(InvalidSignature);
  });

  it('a delivery signed more than 300 s away from now is refused as stale (a replay)', () => {
    const header = stripeSignatureHeader(body, secret, sentAt);
    const later = new Date(sentAt.getTime() + 301_000);
    expect(() => verifyStripeSignature(body, header, secret, later)).toThrow(/tolerance/);
    const earlier = new Date(sentAt.getTime() - 301_000);
    expect(() => verifyStripeSignature(body, header, secret, earlier)).toThrow(/tolerance/);
  });

  it('a missing header, or one without a timestamp or a v1, is refused', () => {
    const v1 = hmac(secret, `${t}.${body}`);
    for (const header of [null, '', `v1=${v1}`, `t=${t}`, `t=soon,v1=${v1}`, 'garbage']) {
      expect(() => verifyStripeSignature(body, header, secret, sentAt)).toThrow(InvalidSignature);
    }
  });
});
