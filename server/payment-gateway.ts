import type { Queryable } from '#db/client.ts';
import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import { StripeGateway } from '#domain/commerce/stripe-gateway.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { Config } from './config.ts';

/** The gateway this server charges with: Stripe when configured, else the test gateway. */
export function createPaymentGateway(config: Config, db: Queryable): PaymentGateway {
  return config.stripe ? new StripeGateway(config.stripe) : new TestGateway(db);
}
