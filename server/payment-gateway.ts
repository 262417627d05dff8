import type { Queryable } from '#db/client.ts';
import type { BrowserPayments, PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import { StripeGateway } from '#domain/commerce/stripe-gateway.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { Config } from './config.ts';

/** The gateway this server charges with: Stripe when configured, else the test gateway. */
export function createPaymentGateway(config: Config, db: Queryable): PaymentGateway {
  return config.stripe ? new StripeGateway(config.stripe) : new TestGateway(db);
}

/** What the pages hand the browser to pay through that gateway; never the secret keys. */
export function browserPaymentsFor(config: Config): BrowserPayments {
  return config.stripe
    ? { gateway: 'stripe', publishableKey: config.stripe.publishableKey }
    : { gateway: 'test' };
}
