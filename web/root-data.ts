import type { Locale } from '#domain/accounts/language.ts';
import type { MenuGroup } from '#domain/accounts/navigation.ts';
import type { SiteLinks } from '#domain/sites/types.ts';

/** What every page's shell needs, loaded once by the root route. */
export type RootData = {
  locale: Locale;
  csrfToken: string | null;
  site: {
    title: string;
    logo: string | null;
    isWhiteLabel: boolean;
    links: SiteLinks;
    theme: Record<string, string>;
    showSearch: boolean;
    showCart: boolean;
    allowedLanguages: Locale[];
    showLanguagePicker: boolean;
  };
  /** timeZone: the account's (IANA); dates are shown in it (time is UTC in the database). */
  user: { firstName: string; timeZone: string; menu: MenuGroup[] } | null;
  maintenanceBanner: { id: number; message: string } | null;
  /** The built-in test gateway takes payments: every page says "Test mode" (decision 011). */
  testMode: boolean;
  showApiDocs: boolean;
};
