import type { Locale } from '#domain/accounts/language.ts';
import type { VitalsourceSettings } from './merger.ts';

export type SiteOrg = {
  id: number;
  title: string;
  isCdsEnabled: boolean;
  isRetailer: boolean;
  isBookstorePartner: boolean;
  isFollettOrg: boolean;
  purchaseModalEnabled: boolean;
  buysOnPartnerSite: boolean;
  helpUrl: string | null;
  /** spec 1 §3 platformFeeFeatures: enable_fee, platform_fee, fee_threshold. */
  platformFee: { enabled: boolean; feeCents: number; thresholdCents: number };
};

export type SiteLinks = {
  support: string;
  help: string;
  privacy: string;
  terms: string;
  refund: string;
  accessibility: string;
  library: string;
};

/** The site a request is on, resolved from its Host header (DESIGN.md, Requests). */
export type Site = {
  host: string;
  title: string;
  logo: string | null;
  whiteLabelId: number | null;
  org: SiteOrg | null;
  links: SiteLinks;
  allowEcommerce: boolean;
  showEcommerce: boolean;
  myShelfEnabled: boolean;
  isFollettLabel: boolean;
  eulaExempt: boolean;
  isDashboardEnabled: boolean;
  isCampusInsightsEnabled: boolean;
  allowedLanguages: Locale[];
  theme: Record<string, string>;
  /** A white label's own VitalSource settings; null on the main site (organisation 1's). */
  vitalsource: VitalsourceSettings | null;
};
