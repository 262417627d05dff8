import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.ts';

const keys = {
  STRIPE_SECRET_KEY: 'sk_test_51Config000000000000000000000000',
  STRIPE_WEBHOOK_SECRET: 'whsec_config_1a2b3c4d5e6f',
  STRIPE_PUBLISHABLE_KEY: 'pk_test_51Config000000000000000000000000',
};

// Decision 007: Stripe takes payments when its three keys are set; otherwise the test gateway.
describe('Stripe configuration', () => {
  it('none of the keys: no Stripe, the built-in test gateway', () => {
    expect(loadConfig({}).stripe).toBeNull();
  });

  it('all three keys: Stripe, at its own API unless STRIPE_API_BASE says otherwise', () => {
    expect(loadConfig(keys).stripe).toEqual({
      secretKey: keys.STRIPE_SECRET_KEY,
      webhookSecret: keys.STRIPE_WEBHOOK_SECRET,
      publishableKey: keys.STRIPE_PUBLISHABLE_KEY,
      apiBase: undefined,
    });
    const local = loadConfig({ ...keys, STRIPE_API_BASE: 'http://127.0.0.1:12111' });
    expect(local.stripe?.apiBase).toBe('http://127.0.0.1:12111');
  });

  it('some keys but not all stops the start and names each missing one', () => {
    expect(() => loadConfig({ STRIPE_SECRET_KEY: keys.STRIPE_SECRET_KEY })).toThrow(
      /STRIPE_WEBHOOK_SECRET: required[\s\S]*STRIPE_PUBLISHABLE_KEY: required/,
    );
    expect(() => loadConfig({ STRIPE_API_BASE: 'http://127.0.0.1:12111' })).toThrow(
      /STRIPE_API_BASE/,
    );
  });

  it('keys of the wrong kind, or test and live keys mixed, stop the start', () => {
    expect(() => loadConfig({ ...keys, STRIPE_SECRET_KEY: keys.STRIPE_PUBLISHABLE_KEY })).toThrow(
      /STRIPE_SECRET_KEY/,
    );
    expect(() => loadConfig({ ...keys, STRIPE_WEBHOOK_SECRET: 'secret' })).toThrow(
      /STRIPE_WEBHOOK_SECRET/,
    );
    expect(() =>
      loadConfig({ ...keys, STRIPE_PUBLISHABLE_KEY: 'pk_live_51Config0000000000000000000000' }),
    ).toThrow(/test and live keys are mixed/);
  });
});
