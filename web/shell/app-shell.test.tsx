import { renderToString } from 'react-dom/server';
import {
  createStaticHandler,
  createStaticRouter,
  data,
  Outlet,
  type RouteObject,
  StaticRouterProvider,
} from 'react-router';
import { describe, expect, it } from 'vitest';
import { LANGUAGES, type Locale } from '#domain/accounts/language.ts';
import { loadCatalog } from '#web/i18n/catalog.ts';
import { LocaleContext } from '#web/i18n/locale-context.ts';
import { ErrorBoundary as RootErrorBoundary } from '#web/root.tsx';
import type { RootData } from '#web/root-data.ts';
import { AppShell } from './app-shell.tsx';
import ShellLayout, { ErrorBoundary as LayoutErrorBoundary } from './shell-layout.tsx';

// Issue 13: every error page keeps the shell (skip link, banners, navbar, footer), whether the
// root loader ran (a page's loader or action failed) or not (the root loader itself failed).

const rootData: RootData = {
  locale: 'en',
  csrfToken: null,
  site: {
    title: 'Riverbend Campus Bookstore',
    logo: null,
    isWhiteLabel: false,
    links: {
      support: '/support',
      help: '/help',
      privacy: '/privacy',
      terms: '/terms',
      refund: '/refund-policy',
      accessibility: '/accessibility',
      library: '/library/',
    },
    themeCss: '',
    showSearch: true,
    showCart: false,
    allowedLanguages: ['en', 'fr-CA'],
    showLanguagePicker: true,
  },
  user: null,
  maintenanceBanner: { id: 7, message: 'Read-only on Sunday.' },
  merger: null,
  testMode: false,
  showApiDocs: false,
};

async function render(routes: RouteObject[], request: Request, locale: Locale = 'en') {
  await Promise.all(LANGUAGES.map(loadCatalog));
  const handler = createStaticHandler(routes);
  const context = await handler.query(request);
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  const html = renderToString(
    <LocaleContext.Provider value={locale}>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </LocaleContext.Provider>,
  );
  return { status: context.statusCode, html };
}

function routes(rootLoader: () => unknown): RouteObject[] {
  return [
    {
      id: 'root',
      path: '/',
      loader: rootLoader,
      Component: () => (
        <AppShell>
          <Outlet />
        </AppShell>
      ),
      ErrorBoundary: RootErrorBoundary,
      children: [
        {
          id: 'shell-layout',
          Component: ShellLayout,
          ErrorBoundary: LayoutErrorBoundary,
          children: [
            {
              id: 'section',
              path: 'section',
              loader: () => {
                throw data(null, { status: 403 });
              },
              action: () => {
                throw data(null, { status: 400 });
              },
              Component: () => null,
            },
          ],
        },
      ],
    },
  ];
}

describe('error pages keep the shell', () => {
  it("a page's 403 has the skip link, the maintenance banner, the navbar and the footer", async () => {
    const { status, html } = await render(
      routes(() => rootData),
      new Request('http://localhost/section'),
    );
    expect(status).toBe(403);
    expect(html).toContain('Sorry, you can&#x27;t access this page.');
    expect(html).toContain('Skip to main content');
    expect(html).toContain('Read-only on Sunday.');
    expect(html).toContain('Riverbend Campus Bookstore home');
    expect(html).toContain('Site map');
  });

  it("an action's 400 still has the root's data: the banner and the site's own title", async () => {
    const { status, html } = await render(
      routes(() => rootData),
      new Request('http://localhost/section', { method: 'POST', body: new FormData() }),
    );
    expect(status).toBe(400);
    expect(html).toContain('Read-only on Sunday.');
    expect(html).toContain('Riverbend Campus Bookstore home');
  });

  it("the root loader's own failure: skip link, navbar and footer of the main site, in the request's language", async () => {
    const { status, html } = await render(
      routes(() => {
        throw new Error('boom');
      }),
      new Request('http://localhost/section'),
      'fr-CA',
    );
    expect(status).toBe(500);
    expect(html).toContain('Désolé, une erreur s’est produite.');
    expect(html).toContain('Passer au contenu principal');
    expect(html).toContain('Accueil de Shelfmark');
    expect(html).toContain('Plan du site');
  });
});
