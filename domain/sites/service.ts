import { and, desc, eq, gt, isNull, lte, or } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import {
  banners,
  featureFlags,
  organizations,
  vitalsourceConfigs,
  whiteLabels,
} from '#db/schema/sites.ts';
import { isLocale, LANGUAGES, type Locale } from '#domain/accounts/language.ts';
import { TimedCache } from '#domain/shared/timed-cache.ts';
import { DEFAULT_LINKS, DEFAULT_SITE_TITLE } from './defaults.ts';
import { MERGER_FLAG, type MergerNotice, mergerNotice } from './merger.ts';
import { partnerStoreOrigin } from './partner-store.ts';
import type { Site, SiteOrg } from './types.ts';

export function defaultSite(host: string): Site {
  return {
    host,
    title: DEFAULT_SITE_TITLE,
    logo: null,
    whiteLabelId: null,
    org: null,
    links: DEFAULT_LINKS,
    allowEcommerce: true,
    showEcommerce: true,
    myShelfEnabled: true,
    isFollettLabel: false,
    eulaExempt: false,
    isDashboardEnabled: false,
    isCampusInsightsEnabled: false,
    allowedLanguages: [...LANGUAGES],
    theme: {},
    vitalsource: null,
  };
}

/** Host header without port, lower case; anything odd falls back to the default site. */
export function normalizeHost(hostHeader: string | null | undefined): string {
  const host = (hostHeader ?? '').trim().toLowerCase().replace(/:\d+$/, '');
  return /^[a-z0-9.-]{1,253}$/.test(host) ? host : 'localhost';
}

// Site settings change rarely and every process may hold them briefly: nothing here is state
// another process needs (DESIGN.md, Scale path 2).
// Answered up to a minute past its time to live while loaded again in the background: the page
// cache's fast path needs the site (knownSite), and on its expiry every shopper's request
// rendered at once, on a database an import kept busy (issue 15). A change to a site is
// forgotten at once anyway (server/app.ts, the change listener).
const siteCache = new TimedCache<string, Site>(30_000, 1_000, 'other', 60_000);
type BannerKind = 'maintenance' | 'merger';
type StoredBanner = { id: number; message: string; messageFrCa: string | null };
const bannerCache = new TimedCache<BannerKind, StoredBanner | null>(30_000, 2);
const flagCache = new TimedCache<'all', ReadonlySet<string>>(30_000, 1);
const mainVitalsourceCache = new TimedCache<'main', boolean>(30_000, 1);

// Partner stores change rarely: each process keeps their origins up to 30 s, forgotten when
// a site or organisation changes (clearTimedCaches).
const storeOrigins = new TimedCache<'all', string[]>(30_000, 1);

export function clearSiteCache(): void {
  siteCache.clear();
  bannerCache.clear();
  flagCache.clear();
  mainVitalsourceCache.clear();
  storeOrigins.clear();
}

/** The site for a host when this process already knows it (the page cache's fast path). */
export function knownSite(hostHeader: string | null | undefined): Site | undefined {
  return siteCache.get(normalizeHost(hostHeader));
}

export async function resolveSite(
  db: Queryable,
  hostHeader: string | null | undefined,
): Promise<Site> {
  const host = normalizeHost(hostHeader);
  return siteCache.getOrLoad(host, () => loadSite(db, host));
}

async function loadSite(db: Queryable, host: string): Promise<Site> {
  const [row] = await db
    .select({ label: whiteLabels, org: organizations })
    .from(whiteLabels)
    .innerJoin(organizations, eq(organizations.id, whiteLabels.orgId))
    .where(eq(whiteLabels.fqdn, host))
    .limit(1);
  if (!row) return defaultSite(host);
  const { label, org } = row;
  const siteOrg: SiteOrg = {
    id: org.id,
    title: org.title,
    isCdsEnabled: org.isCdsEnabled,
    isRetailer: org.isRetailer,
    isBookstorePartner: org.isBookstorePartner,
    isFollettOrg: org.isFollettOrg,
    purchaseModalEnabled: org.purchaseModalEnabled,
    buysOnPartnerSite: org.buysOnPartnerSite,
    helpUrl: org.helpUrl,
    platformFee: {
      enabled: org.enableFee,
      feeCents: org.platformFeeCents,
      thresholdCents: org.feeThresholdCents,
    },
  };
  return {
    host,
    title: label.title,
    logo: label.labelLogo,
    whiteLabelId: label.id,
    org: siteOrg,
    links: {
      support: label.supportUrl ?? DEFAULT_LINKS.support,
      // spec 2 §2: a different help page for the bookstore-partner organisation.
      help: org.helpUrl ?? label.helpUrl ?? DEFAULT_LINKS.help,
      privacy: label.privacyUrl ?? DEFAULT_LINKS.privacy,
      terms: label.termsUrl ?? DEFAULT_LINKS.terms,
      refund: label.refundUrl ?? DEFAULT_LINKS.refund,
      accessibility: label.accessibilityUrl ?? DEFAULT_LINKS.accessibility,
      library: label.libraryUrl ?? DEFAULT_LINKS.library,
    },
    allowEcommerce: label.allowEcommerce,
    showEcommerce: label.showEcommerce,
    myShelfEnabled: label.myShelfEnabled,
    isFollettLabel: label.isFollettLabel,
    eulaExempt: label.eulaExempt,
    isDashboardEnabled: label.isDashboardEnabled,
    isCampusInsightsEnabled: label.isCampusInsightsEnabled,
    allowedLanguages: label.allowedLanguageCodes.filter(isLocale),
    theme: label.theme,
    vitalsource: { showVsModal: label.showVsModal, redirectUrl: label.vsRedirectUrl },
  };
}

/** The active maintenance banner, if any (spec 1 §1; spec 2 §7 Maintenance banner). */
export async function activeMaintenanceBanner(
  db: Queryable,
  now: Date,
  locale: Locale,
): Promise<{ id: number; message: string } | null> {
  const banner = await activeBanner(db, now, 'maintenance');
  if (!banner) return null;
  return { id: banner.id, message: (locale === 'fr-CA' && banner.messageFrCa) || banner.message };
}

function activeBanner(db: Queryable, now: Date, kind: BannerKind): Promise<StoredBanner | null> {
  return bannerCache.getOrLoad(kind, async () => {
    const [row] = await db
      .select({ id: banners.id, message: banners.message, messageFrCa: banners.messageFrCa })
      .from(banners)
      .where(
        and(
          eq(banners.kind, kind),
          eq(banners.isActive, true),
          or(isNull(banners.startsAt), lte(banners.startsAt, now)),
          or(isNull(banners.endsAt), gt(banners.endsAt, now)),
        ),
      )
      .orderBy(desc(banners.id))
      .limit(1);
    return row ?? null;
  });
}

/** The keys of the feature flags that are on (spec 1 §3 Login: enabledFeatures). */
export function enabledFeatureFlags(db: Queryable): Promise<ReadonlySet<string>> {
  return flagCache.getOrLoad('all', async () => {
    const rows = await db
      .select({ key: featureFlags.key })
      .from(featureFlags)
      .where(eq(featureFlags.enabled, true));
    return new Set(rows.map((r) => r.key));
  });
}

/** spec 2 §7 and §9: the main site reads the vitalsource config of organisation 1. */
export const MAIN_SITE_VITALSOURCE_ORG_ID = 1;

/**
 * The merger banner and modal of this site, or null when the merger flag is off (spec 1 §1,
 * spec 2 §4; the rule is mergerNotice). A white label says itself whether the modal shows and
 * where 'Go To VitalSource' leads; the main site's modal follows the vitalsource config of
 * organisation 1 (a missing config: false, spec 2 §7). Without an address of the site's own,
 * `defaultRedirectUrl` (configuration) is where the button leads.
 */
export async function activeMergerNotice(
  db: Queryable,
  now: Date,
  locale: Locale,
  site: Pick<Site, 'vitalsource'>,
  defaultRedirectUrl: string | null,
): Promise<MergerNotice | null> {
  const flags = await enabledFeatureFlags(db);
  if (!flags.has(MERGER_FLAG)) return null;
  const [banner, showVsModal] = await Promise.all([
    activeBanner(db, now, 'merger'),
    site.vitalsource
      ? site.vitalsource.showVsModal
      : mainVitalsourceCache.getOrLoad('main', async () => {
          const [row] = await db
            .select({ showVsModal: vitalsourceConfigs.showVsModal })
            .from(vitalsourceConfigs)
            .where(eq(vitalsourceConfigs.orgId, MAIN_SITE_VITALSOURCE_ORG_ID))
            .limit(1);
          return row?.showVsModal ?? false;
        }),
  ]);
  return mergerNotice({
    flagOn: true,
    banner,
    locale,
    settings: {
      showVsModal,
      redirectUrl: site.vitalsource?.redirectUrl ?? defaultRedirectUrl,
    },
  });
}

/**
 * The origins of the bookstore partners' stores: pages may post the hand-off form there
 * (the Content-Security-Policy's form-action).
 */
export function partnerStoreOrigins(db: Queryable): Promise<string[]> {
  return storeOrigins.getOrLoad('all', async () => {
    const rows = await db
      .select({ url: organizations.partnerStoreUrl })
      .from(organizations)
      .where(eq(organizations.isBookstorePartner, true));
    const origins = rows.map((r) => partnerStoreOrigin(r.url));
    return [...new Set(origins.filter((o): o is string => o !== null))];
  });
}
