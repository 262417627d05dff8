import { lazy } from 'react';
import {
  data,
  Links,
  Meta,
  Outlet,
  redirect,
  Scripts,
  type ShouldRevalidateFunctionArgs,
  useRouteLoaderData,
} from 'react-router';
import { showLanguagePicker } from '#domain/accounts/language.ts';
import { bannerDismissedIn } from '#domain/sites/maintenance-banner.ts';
import { activeMaintenanceBanner, activeMergerNotice } from '#domain/sites/service.ts';
import { isEcommerceShown, isWhiteLabel } from '#domain/sites/site-rules.ts';
import { loadCatalog } from '#web/i18n/catalog.ts';
import { IntlWarmUp } from '#web/i18n/intl-warm-up.tsx';
import { PageMessages } from '#web/i18n/page-messages.tsx';
import { useCatalogUpdates, useLocale } from '#web/i18n/use-t.ts';
import type { RootData } from '#web/root-data.ts';
import { rootPersonal, rootRedirect } from '#web/root-personal.server.ts';
import { AppShell } from '#web/shell/app-shell.tsx';
import { ErrorPage } from '#web/shell/error-page.tsx';
import { InlineStyles } from '#web/shell/inline-styles.tsx';
import { ScrollRestoration } from '#web/shell/scroll-restoration.tsx';
import { TestModeBanner } from '#web/shell/test-mode-banner.tsx';
import { hydratedOnDemand } from '#web/utils/hydrated-on-demand.tsx';
import type { Route } from './+types/root.ts';

export const links: Route.LinksFunction = () => [
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export async function loader({ request, context }: Route.LoaderArgs) {
  const { rc } = context;
  const eula = rootRedirect(context, new URL(request.url));
  if (eula) throw redirect(eula);
  // spec 2 §7: a banner that cannot be read is logged, and the page shows without it.
  const optional = <T,>(what: string, load: Promise<T>) =>
    load.catch((error: unknown) => {
      context.log.error({ err: error }, what);
      return null;
    });
  const [banner, merger] = await Promise.all([
    optional('maintenance banner', activeMaintenanceBanner(rc.db, rc.now, rc.locale)),
    optional(
      'merger notice',
      activeMergerNotice(rc.db, rc.now, rc.locale, rc.site, context.vitalsourceUrl),
    ),
  ]);
  const personal = rootPersonal(context);
  const body: RootData = {
    locale: rc.locale,
    csrfToken: personal.csrfToken,
    site: {
      title: rc.site.title,
      logo: rc.site.logo,
      isWhiteLabel: isWhiteLabel(rc.site),
      links: rc.site.links,
      // Only custom properties with plain values: a white label's theme is not a style sheet.
      themeCss: Object.entries(rc.site.theme)
        .filter(([name, value]) => /^--[a-z-]+$/.test(name) && /^[#\w(),.% -]+$/.test(value))
        .map(([name, value]) => `${name}:${value}`)
        .join(';'),
      showSearch: isEcommerceShown(rc.site),
      showCart: personal.showCart,
      allowedLanguages: rc.site.allowedLanguages,
      showLanguagePicker: showLanguagePicker(rc.site.allowedLanguages),
    },
    user: personal.user,
    // spec 1 §1: a banner this browser dismissed is not sent again (domain/sites/maintenance-banner.ts).
    maintenanceBanner:
      banner && !bannerDismissedIn(request.headers.get('cookie') ?? '', banner.id) ? banner : null,
    merger,
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
  const theme = root?.site.themeCss;
  const locale = useLocale();
  // The titles of <Meta /> too are written again once a language's catalog has arrived.
  useCatalogUpdates();
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <IntlWarmUp locale={locale} />
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
  return (
    <AppShell>
      <Outlet />
    </AppShell>
  );
}

// The main site's shell data for an error page without the root's (shell-fallback.tsx).
const ShellFallback = hydratedOnDemand(
  import.meta.env.SSR
    ? (await import('#web/shell/shell-fallback.tsx')).ShellFallback
    : lazy(() =>
        import('#web/shell/shell-fallback.tsx').then((module) => ({
          default: module.ShellFallback,
        })),
      ),
);

// Pages' errors stop at the shell layout's boundary (web/shell/shell-layout.tsx); this one is
// for the root loader's own failures, and still has the skip link, navbar and footer.
export function ErrorBoundary() {
  return (
    <ShellFallback>
      <AppShell>
        <ErrorPage />
      </AppShell>
    </ShellFallback>
  );
}
