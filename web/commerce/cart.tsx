import { data, Form, Link, redirect, useLoaderData } from 'react-router';
import { z } from 'zod';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import {
  cartOwnerOf,
  putInCart,
  reconcileCart,
  removeFromCart,
  subtotalCents,
} from '#domain/commerce/cart.ts';
import { interruptedPayments } from '#domain/commerce/checkout.ts';
import { RECOVERED_NOTICE_MS } from '#domain/commerce/duplicate-charge.ts';
import { reconcilePayments } from '#domain/commerce/payment-recovery.ts';
import { DomainError, Invalid } from '#domain/shared/errors.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { RemovedLinesNotice } from '#web/commerce/removed-lines-notice.tsx';
import { CartLineItem } from '#web/components/cart-line-item.tsx';
import { idField } from '#web/forms/fields.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { checkoutPath } from '#web/utils/checkout-path.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/cart.ts';

const CartForm = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('add'),
    offeringId: idField,
    courseId: idField.optional(),
    next: z.string().max(2000).optional(),
  }),
  z.object({ intent: z.literal('remove'), cartItemId: idField }),
]);

// /cart/ (spec 1 §2): the shopper's items with their offering and price, and the subtotal.
// Anonymous shoppers have a cart too (their browser's), joined to the account's on login.
// What the shopper already holds or cannot receive leaves the cart here, with the reason
// (issue 19).
// A buyer back from a payment whose answer never came (issue 37) is told it went through,
// with the order, rather than shown the items again to pay twice: their open payments are
// asked about first, and orders paid so in the last half hour are named.
export const loader = withDomainErrors(async ({ context }: Route.LoaderArgs) => {
  const user = context.rc.user;
  if (user) {
    await reconcilePayments(context.rc.db, context.gateway, context.rc.clock, { userId: user.id });
  }
  const owner = cartOwnerOf(user, context.anonymousKey);
  const { lines, removed } = owner
    ? await reconcileCart(context.rc, owner)
    : { lines: [], removed: [] };
  const recovered = user
    ? await interruptedPayments(context.rc.db, {
        userId: user.id,
        since: new Date(context.rc.now.getTime() - RECOVERED_NOTICE_MS),
      })
    : [];
  return { lines, removed, subtotal: subtotalCents(lines), recovered };
});

// Add To Cart / Update Cart from a product page (back to it: the button then reads View Cart),
// and Remove from this page. The server checks the CSRF token of every POST.
export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const parsed = CartForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) throw new Invalid();
  const owner = cartOwnerOf(context.rc.user, context.anonymousKey);
  if (!owner) throw new Invalid('error.csrf');
  if (parsed.data.intent === 'add') {
    try {
      await putInCart(context.rc, owner, {
        offeringId: parsed.data.offeringId,
        courseSectionId: parsed.data.courseId ?? null,
      });
    } catch (error) {
      // The product page shows it in 'Unable to Add to Cart'; the cart is as it was.
      if (error instanceof DomainError) {
        return data({ error: error.messageKey, params: error.params }, { status: error.status });
      }
      throw error;
    }
    return redirect(safeNextPath(parsed.data.next ?? '/cart'));
  }
  await removeFromCart(context.rc.db, owner, parsed.data.cartItemId);
  return redirect('/cart');
});

export default function CartPage() {
  const { lines, removed, subtotal, recovered } = useLoaderData<typeof loader>();
  const t = useT();
  const locale = useLocale();
  const csrfToken = useCsrfToken();
  return (
    <section className="narrow stack">
      <h1>{t('cart.title')}</h1>
      {recovered.map((order) => (
        <p key={order.orderId} className="alert alert--success">
          <Link to={`/account/orders/${order.orderId}`}>
            {t('checkout.earlier.paid', { amount: formatMoney(locale, order.totalCents, 'USD') })}
          </Link>
        </p>
      ))}
      <RemovedLinesNotice removed={removed} />
      {lines.length === 0 ? (
        <p>{t('checkout.error.emptyCart')}</p>
      ) : (
        <>
          <ul className="stack cart-lines">
            {lines.map((line) => (
              <CartLineItem key={line.id} line={line}>
                <Form method="post">
                  <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
                  <input type="hidden" name="intent" value="remove" />
                  <input type="hidden" name="cartItemId" value={line.id} />
                  <button
                    type="submit"
                    className="button button--secondary"
                    aria-label={t('cart.removeOf', { title: line.title })}
                  >
                    {t('cart.remove')}
                  </button>
                </Form>
              </CartLineItem>
            ))}
          </ul>
          <p className="cart-subtotal">
            {t('label.colon', { label: t('cart.subtotal') })}{' '}
            <strong>{formatMoney(locale, subtotal, 'USD')}</strong>
          </p>
          <p>
            <Link to={checkoutPath(lines)} className="button button--primary">
              {t('checkout.title')}
            </Link>
          </p>
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'cart.title');
