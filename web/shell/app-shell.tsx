import { lazy, type ReactNode, useEffect } from 'react';
import { AppLinks } from '#web/components/app-links.tsx';
import { Footer } from '#web/components/footer.tsx';
import { Navbar } from '#web/components/navbar.tsx';
import { PageViewTracker } from '#web/components/page-view-tracker.tsx';
import { useFocusFirstError } from '#web/forms/focus-first-error.ts';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { hydratedOnDemand } from '#web/utils/hydrated-on-demand.tsx';
import { pageHydrated } from '#web/utils/server-markup.tsx';
import { CookieCheck } from './cookie-check.tsx';
import { ImpersonationBanner } from './impersonation-banner.tsx';
import { MaintenanceBanner } from './maintenance-banner.tsx';

// The merger banner's code comes only to pages that show it (web/utils/hydrated-on-demand.tsx).
const MergerBanner = hydratedOnDemand(
  import.meta.env.SSR
    ? (await import('./merger-banner.tsx')).MergerBanner
    : lazy(() =>
        import('./merger-banner.tsx').then((module) => ({ default: module.MergerBanner })),
      ),
);

/**
 * What every page has around its content, error pages included (issue 13: a 403 or 404 under
 * the course section lost the skip link and the banner): the skip link, the banners, the
 * navbar, the main landmark, the footer. It renders from whatever the root loader gave; an
 * error page without it still gets the navbar and footer of the main site (shell-data.ts).
 */
export function AppShell({ children }: { children: ReactNode }) {
  const root = useRootData();
  const t = useT();
  useFocusFirstError();
  useEffect(() => {
    // Lets browser tests wait for hydration before using controls that need JavaScript.
    document.documentElement.dataset.hydrated = 'true';
    pageHydrated();
  }, []);
  return (
    <>
      <a className="skip-link" href="#main">
        {t('site.skipToContent')}
      </a>
      {root?.user?.actingAs ? <ImpersonationBanner name={root.user.actingAs} /> : null}
      {root?.maintenanceBanner ? <MaintenanceBanner banner={root.maintenanceBanner} /> : null}
      {root?.merger ? <MergerBanner notice={root.merger} /> : null}
      <Navbar />
      <main id="main" tabIndex={-1}>
        <CookieCheck />
        {children}
      </main>
      <Footer />
      <PageViewTracker />
      <AppLinks />
    </>
  );
}
