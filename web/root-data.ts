import type { Locale } from '#domain/accounts/language.ts';
import type { MergerNotice } from '#domain/sites/merger.ts';
import type { SiteLinks } from '#domain/sites/types.ts';
import type { RootPersonal } from '#web/utils/personal-part.ts';

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
  user: RootPersonal['user'];
  maintenanceBanner: { id: number; message: string } | null;
  /** The merger banner, and where its modal's 'Go To VitalSource' leads (spec 1 §1). */
  merger: MergerNotice | null;
  /** The built-in test gateway takes payments: every page says "Test mode" (decision 011). */
  testMode: boolean;
  showApiDocs: boolean;
};

/** The root data of a page composed from a stored one, with the visitor's part (decision 043). */
export function withRootPersonal(data: RootData, part: RootPersonal): RootData {
  return {
    ...data,
    csrfToken: part.csrfToken,
    user: part.user,
    site: { ...data.site, showCart: part.showCart },
  };
}
