import type { ReactNode } from 'react';
import { LANGUAGES } from '#domain/accounts/language.ts';
import { DEFAULT_LINKS, DEFAULT_SITE_TITLE } from '#domain/sites/defaults.ts';
import { useLocale } from '#web/i18n/use-t.ts';
import { ShellFallbackContext } from './shell-data.ts';

/**
 * What the shell shows when the root loader did not run (the root's error boundary): the
 * main site's title and links in the request's language, no user, no banners. Server and
 * browser compute it from the same things, so the page hydrates as it was rendered; its code
 * comes only to such a page (the root's ErrorBoundary loads it with hydratedOnDemand).
 */
export function ShellFallback({ children }: { children: ReactNode }) {
  const locale = useLocale();
  return (
    <ShellFallbackContext.Provider
      value={{
        locale,
        csrfToken: null,
        site: {
          title: DEFAULT_SITE_TITLE,
          logo: null,
          isWhiteLabel: false,
          links: DEFAULT_LINKS,
          themeCss: '',
          showSearch: true,
          showCart: false,
          allowedLanguages: [...LANGUAGES],
          showLanguagePicker: false,
        },
        user: null,
        maintenanceBanner: null,
        merger: null,
        testMode: false,
        showApiDocs: false,
      }}
    >
      {children}
    </ShellFallbackContext.Provider>
  );
}
