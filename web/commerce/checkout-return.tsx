import { redirect } from 'react-router';
import { resumePayment } from '#domain/commerce/checkout.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/checkout-return.ts';

// /checkout/return/{order_id}: where Stripe sends the shopper back after a bank's page
// (3-D Secure shown as a redirect, a redirect-based method), as the `return_url` Stripe.js was
// given (decision 007). Stripe's query parameters are not read: the payment is read back from
// Stripe and settled, then the order-complete page, or the checkout with why it failed. Its
// owner only; another shopper's or a malformed id is not found, like the complete page.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  const outcome = await resumePayment(context.rc, context.gateway, params.orderId);
  if (outcome.ok) return redirect(`/checkout/complete/${params.orderId}`);
  return redirect(`/checkout/?payment_error=${outcome.reason}`);
});

// Never rendered: the loader always redirects, and its errors go to the root's boundary.
export default function CheckoutReturn() {
  return null;
}
