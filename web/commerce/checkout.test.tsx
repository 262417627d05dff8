import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Locale } from '#domain/accounts/language.ts';
import { loadCatalog } from '#web/i18n/catalog.ts';
import CheckoutPage from './checkout.tsx';

/** The checkout page as the server renders it for a cart of one book, in a language. */
async function checkoutPage(locale: Locale): Promise<string> {
  await loadCatalog(locale);
  const routes = [
    {
      id: 'root',
      path: '/',
      loader: () => ({ locale, csrfToken: 'token' }),
      children: [
        {
          id: 'checkout',
          path: 'checkout',
          loader: () => ({
            lines: [{ id: 1, productId: 13, title: 'A Book', priceCents: 2999 }],
            removed: [],
            subtotal: 2999,
            fee: 100,
            total: 3099,
            key: 'idempotency-key',
            courseId: null,
            shipping: false,
            printOnDemand: false,
            printed: false,
            refundUrl: '/refund-policy',
            payments: { gateway: 'test' },
            paymentError: null,
          }),
          Component: CheckoutPage,
        },
      ],
    },
  ];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/checkout'));
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the checkout page', () => {
  it('renders without React warnings (no props object with a key spread into JSX)', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await checkoutPage('en');
    expect(errors.mock.calls.map((call) => String(call[0]))).toEqual([]);
  });

  it('the card expiry placeholder is in the page language: MM/YY, and MM/AA in French (issue 13)', async () => {
    expect(await checkoutPage('en')).toContain('placeholder="MM/YY"');
    const french = await checkoutPage('fr-CA');
    expect(french).toContain('Expiration (MM/AA)');
    expect(french).toContain('placeholder="MM/AA"');
  });
});
