import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import { StripeGateway } from '#domain/commerce/stripe-gateway.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { WebContext } from '#server/load-context.ts';

/** The gateway this server charges with: Stripe when configured, else the test gateway. */
export function paymentGatewayFor(context: Pick<WebContext, 'rc' | 'stripe'>): PaymentGateway {
  return context.stripe ? new StripeGateway(context.stripe) : new TestGateway(context.rc.db);
}
