import { useEffect } from 'react';
import {
  data,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  ScrollRestoration,
  type ShouldRevalidateFunctionArgs,
  useLoaderData,
  useRouteLoaderData,
} from 'react-router';
import { eulaRedirect } from '#domain/accounts/eula.ts';
import { showLanguagePicker } from '#domain/accounts/language.ts';
import { userMenuGroups } from '#domain/accounts/navigation.ts';
import { navigationFlags } from '#domain/accounts/service.ts';
import { activeMaintenanceBanner } from '#domain/sites/service.ts';
import { isEcommerceShown, isWhiteLabel, showNavbarCart } from '#domain/sites/site-rules.ts';
import { AppLinks } from '#web/components/app-links.tsx';
import { Footer } from '#web/components/footer.tsx';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { Navbar } from '#web/components/navbar.tsx';
import { PageViewTracker } from '#web/components/page-view-tracker.tsx';
import { loadCatalog } from '#web/i18n/catalog.ts';
import { PageMessages } from '#web/i18n/page-messages.tsx';
import { useCatalogUpdates, useLocale, useT } from '#web/i18n/use-t.ts';
import type { RootData } from '#web/root-data.ts';
import { MaintenanceBanner } from '#web/shell/maintenance-banner.tsx';
import { InlineStyles } from '#web/shell/inline-styles.tsx';
import { TestModeBanner } from '#web/shell/test-mode-banner.tsx';
import type { Route } from './+types/root.ts';

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { rc } = context;
  const url = new URL(request.url);
  const eula = eulaRedirect({
    loggedIn: !!rc.user,
    mustAcceptEula: rc.user?.mustAcceptEula ?? false,
    siteExempt: rc.site.eulaExempt,
    pathAndQuery: url.pathname + url.search,
  });
  if (eula) throw redirect(eula);
  const banner = await activeMaintenanceBanner(rc.db, rc.now, rc.locale);
  const body: RootData = {
    locale: rc.locale,
    // Anonymous pages are shared (page cache): they get no token of their own, see csrf-token.ts.
    csrfToken: rc.user ? context.csrfToken : null,
    site: {
      title: rc.site.title,
      logo: rc.site.logo,
      isWhiteLabel: isWhiteLabel(rc.site),
      links: rc.site.links,
      theme: rc.site.theme,
      showSearch: isEcommerceShown(rc.site),
      showCart: showNavbarCart(rc.site.org ?? rc.user?.org ?? null),
      allowedLanguages: rc.site.allowedLanguages,
      showLanguagePicker: showLanguagePicker(rc.site.allowedLanguages),
    },
    user: rc.user
      ? {
          firstName: rc.user.firstName,
          timeZone: rc.user.timeZone,
          menu: userMenuGroups(navigationFlags(rc.user, rc.site)),
        }
      : null,
    maintenanceBanner: banner,
    testMode: context.browserPayments.gateway === 'test',
    showApiDocs: context.isDevelopment,
  };
  return data(body, { headers: { 'Cache-Control': 'private, no-store' } });
}

// A write can change the page's language (logging in as someone who chose French): the new
// language's messages arrive before anything renders in it (web/i18n/catalog.ts).
export async function clientLoader({ serverLoader }: Route.ClientLoaderArgs) {
  const root = await serverLoader();
  await loadCatalog(root.locale);
  return root;
}

// Shell data changes only on a write (login, language) or when the URL's search changes.
export function shouldRevalidate({
  formMethod,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return formMethod && formMethod !== 'GET' ? defaultShouldRevalidate : false;
}

export function Layout({ children }: { children: React.ReactNode }) {
  const root = useRouteLoaderData('root') as RootData | undefined;
  const theme = Object.entries(root?.site.theme ?? {})
    .filter(([name, value]) => /^--[a-z-]+$/.test(name) && /^[#\w(),.% -]+$/.test(value))
    .map(([name, value]) => `${name}:${value}`)
    .join(';');
  const locale = useLocale();
  // The titles of <Meta /> too are written again once a language's catalog has arrived.
  useCatalogUpdates();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <InlineStyles />
        <Links />
        {theme ? <style>{`:root{${theme}}`}</style> : null}
      </head>
      <body>
        {root?.testMode ? <TestModeBanner /> : null}
        {children}
        <ScrollRestoration />
        <Scripts />
        <PageMessages />
      </body>
    </html>
  );
}

export default function App() {
  const root = useLoaderData<typeof loader>();
  useEffect(() => {
    // Lets browser tests wait for hydration before using controls that need JavaScript.
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        <SkipLinkText />
      </a>
      {root.maintenanceBanner ? <MaintenanceBanner banner={root.maintenanceBanner} /> : null}
      <Navbar />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <PageViewTracker />
      <AppLinks />
    </>
  );
}

function SkipLinkText() {
  const t = useT();
  return <>{t('site.skipToContent')}</>;
}

export function ErrorBoundary() {
  return (
    <>
      <Navbar />
      <main id="main" tabIndex={-1}>
        <GeneralErrorBoundary />
      </main>
      <Footer />
    </>
  );
}
