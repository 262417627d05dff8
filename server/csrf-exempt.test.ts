import { describe, expect, it } from 'vitest';
import { isCsrfExempt } from './csrf-exempt.ts';

// Decision 004 and 007: every unsafe request needs the CSRF token, except Stripe's signed
// webhook, at exactly its path.
describe('CSRF exemptions', () => {
  it('the Stripe webhook path is exempt, exactly', () => {
    expect(isCsrfExempt('/api/payments/webhooks/stripe')).toBe(true);
  });

  it('no neighbour, prefix, other spelling or other API path is', () => {
    for (const path of [
      '/api/payments/webhooks/stripe/',
      '/api/payments/webhooks/stripe/x',
      '/api/payments/webhooks',
      '/api/payments/webhooks/Stripe',
      '/api/payments/webhooks/stripe%2F',
      '/api/cart',
      '/api/account/user/me/change-language',
      '/checkout',
    ]) {
      expect([path, isCsrfExempt(path)]).toEqual([path, false]);
    }
  });
});
