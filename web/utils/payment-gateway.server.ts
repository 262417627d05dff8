import { type PaymentGateway, TestGateway } from '#domain/commerce/payment-gateway.ts';

/** The gateway this server charges with: the built-in test gateway until Stripe is configured. */
export const paymentGateway: PaymentGateway = new TestGateway();
