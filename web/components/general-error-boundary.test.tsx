import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, data, StaticRouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Locale } from '#domain/accounts/language.ts';
import { loadCatalog } from '#web/i18n/catalog.ts';
import { LocaleContext } from '#web/i18n/locale-context.ts';
import { GeneralErrorBoundary } from './general-error-boundary.tsx';

/**
 * Renders what a page shows when its loader throws `thrown`, as the server does for a failed
 * form post: no root loader data, only the request's language from the entry (issue 18).
 */
async function errorPage(thrown: unknown, locale: Locale | null): Promise<string> {
  const html = await errorPageHtml(thrown, locale);
  const heading = /<h1>(.*?)<\/h1>/.exec(html)?.[1] ?? '';
  return heading.replaceAll('&#x27;', "'");
}

/** The whole error page as the server renders it, without root data (a visitor). */
async function errorPageHtml(thrown: unknown, locale: Locale | null): Promise<string> {
  const routes = [
    {
      id: 'page',
      path: '/',
      loader: () => {
        throw thrown;
      },
      Component: () => null,
      ErrorBoundary: GeneralErrorBoundary,
    },
  ];
  await Promise.all(LANGUAGES.map(loadCatalog));
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/'));
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(
    <LocaleContext.Provider value={locale}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </LocaleContext.Provider>,
  );
}

describe('GeneralErrorBoundary', () => {
  it("spec 2 §8: a plain 404, 403 and 500 read the spec's texts", async () => {
    expect(await errorPage(data(null, { status: 404 }), 'en')).toBe(
      "Sorry, that page doesn't exist.",
    );
    expect(await errorPage(data(null, { status: 403 }), 'en')).toBe(
      "Sorry, you can't access this page.",
    );
    expect(await errorPage(new Error('boom'), 'en')).toBe('Sorry, we have encountered an error.');
  });

  it("is in the request's language when no root data was loaded (issue 18)", async () => {
    expect(await errorPage(data(null, { status: 404 }), 'fr-CA')).toBe(
      'Désolé, cette page n’existe pas.',
    );
    expect(await errorPage(new Error('boom'), 'fr-CA')).toBe('Désolé, une erreur s’est produite.');
  });

  it('says the thrown domain error’s own message, translated', async () => {
    const thrown = data({ messageKey: 'freeBook.error.notFree', params: {} }, { status: 400 });
    expect(await errorPage(thrown, 'fr-CA')).toBe('Ce livre ne peut pas être ajouté gratuitement.');
    expect(await errorPage(thrown, 'en')).toBe('This book cannot be added for free.');
  });

  it('issue 20: an unverified account refused a purchase is offered a new link, in its language', async () => {
    const thrown = data(
      { messageKey: 'verify.error.required', params: { wayBack: 'verifyEmail' } },
      { status: 403 },
    );
    const html = await errorPageHtml(thrown, 'fr-CA');
    expect(html).toContain('Confirmez d’abord votre adresse courriel');
    expect(html).toMatch(/<a[^>]*href="\/account\/verify-email"[^>]*>Envoyer un nouveau lien<\/a>/);
  });

  it('passes the thrown parameters to the message', async () => {
    const thrown = data(
      { messageKey: 'error.requestId', params: { id: 'abc-123' } },
      { status: 409 },
    );
    expect(await errorPage(thrown, 'en')).toBe('Reference: abc-123');
  });

  it.each([
    ['a key the catalog does not have', { messageKey: 'no.such.key', params: {} }],
    ['a key without its parameters', { messageKey: 'error.requestId', params: {} }],
    ['a key that is not text', { messageKey: 42 }],
  ])('falls back to the status text for %s', async (_name, body) => {
    expect(await errorPage(data(body, { status: 400 }), 'en')).toBe('The request is not valid.');
  });

  it('without any language given, English', async () => {
    expect(await errorPage(data(null, { status: 404 }), null)).toBe(
      "Sorry, that page doesn't exist.",
    );
  });

  it('issue 19: a visitor’s 404 offers a search box and the home page, not the shelf', async () => {
    const html = await errorPageHtml(data(null, { status: 404 }), 'en');
    expect(html).toContain('role="search"');
    expect(html).toContain('name="terms"');
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Go to the home page<\/a>/);
    expect(html).not.toContain('Go to My Shelf');
    // A 403 keeps the spec's action to the shelf.
    expect(await errorPageHtml(data(null, { status: 403 }), 'en')).toContain('Go to My Shelf');
  });
});
