// Mutation testing of the domain's money, access and identity rules (issue 37): StrykerJS
// changes one thing in a rule (a `<` into `<=`, a condition into `true`, a constant) and runs
// the tests that cover that line; a change no test notices is a wrong rule nobody would see.
// Not in CI (it runs the covering tests once per mutant): `npm run test:mutation`, or one file
// with `npm run test:mutation -- --mutate domain/accounts/totp.ts`. Scores: docs/ci.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts' },
  coverageAnalysis: 'perTest',
  mutate: [
    // Money.
    'domain/commerce/purchase-check.ts',
    'domain/commerce/fulfilment-rules.ts',
    'domain/commerce/cart-button.ts',
    'domain/commerce/order-status.ts',
    'domain/commerce/sales-counter.ts',
    'domain/commerce/purchase-value.ts',
    'domain/commerce/receipt-amounts.ts',
    'domain/commerce/payment-failure.ts',
    'domain/commerce/test-card.ts',
    'domain/commerce/card-expiry.ts',
    'domain/commerce/duplicate-charge.ts',
    'domain/commerce/shipping-address.ts',
    'domain/commerce/order-display-status.ts',
    // Access.
    'domain/access/entitlement.ts',
    'domain/access/codes.ts',
    'domain/access/redeem-failure.ts',
    'domain/shelf/shelf-button.ts',
    // Identity.
    'domain/accounts/totp.ts',
    'domain/accounts/second-factor.ts',
    'domain/accounts/password-policy.ts',
    'domain/accounts/login-throttle.ts',
    'domain/accounts/campus-sign-in.ts',
    'domain/accounts/mail-request-throttle.ts',
    'domain/accounts/account-token.ts',
    'domain/shared/throttle.ts',
  ],
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  concurrency: 2,
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: '.stryker-tmp',
  ignoreStatic: true,
};
