import type { Locale } from '#domain/accounts/language.ts';
import type { MenuGroup } from '#domain/accounts/navigation.ts';
import type { MergerNotice } from '#domain/sites/merger.ts';
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
    /** The white label's theme variables as CSS declarations, checked by the root loader. */
    themeCss: string;
    showSearch: boolean;
    showCart: boolean;
    allowedLanguages: Locale[];
    showLanguagePicker: boolean;
  };
  /** timeZone: the account's (IANA); dates are shown in it (time is UTC in the database). */
  user: {
    firstName: string;
    timeZone: string;
    menu: MenuGroup[];
    /** Issue 39, Switch Account: the name of the person a manager is acting as, else null. */
    actingAs: string | null;
  } | null;
  maintenanceBanner: { id: number; message: string } | null;
  /** The merger banner, and where its modal's 'Go To VitalSource' leads (spec 1 §1). */
  merger: MergerNotice | null;
  /** The built-in test gateway takes payments: every page says "Test mode" (decision 011). */
  testMode: boolean;
  showApiDocs: boolean;
};
