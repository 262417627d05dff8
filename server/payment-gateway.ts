import type { Queryable } from '#db/client.ts';
import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { Config } from './config.ts';

/** The gateway this server charges with: the built-in test gateway until Stripe is configured. */
export function createPaymentGateway(_config: Config, db: Queryable): PaymentGateway {
  return new TestGateway(db);
}
