import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

// Organisation behaviours are flags, never comparisons with ids in code (DESIGN.md, Requests).
export const organizations = pgTable(
  'organizations',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    title: text().notNull(),
    contactName: text(),
    phoneNumber: text(),
    emailAddress: text(),
    // The postal address printed on receipts (issue 20), lines separated by newlines.
    postalAddress: text(),
    isCdsEnabled: boolean().notNull().default(false),
    // The retailer organisation: the navbar shows the cart link (spec 1 §2, Navbar).
    isRetailer: boolean().notNull().default(false),
    // The custom bookstore-partner organisation: Buy Now, 'Go To My Bookstore' (spec 1 §4).
    isBookstorePartner: boolean().notNull().default(false),
    isFollettOrg: boolean().notNull().default(false),
    purchaseModalEnabled: boolean().notNull().default(false),
    // Buying happens on the partner reseller site: hides the navbar cart (spec 2 §2).
    buysOnPartnerSite: boolean().notNull().default(false),
    partnerStoreUrl: text(),
    helpUrl: text(),
    // Platform fee, spec 1 §3 platformFeeFeatures: non-refundable, once per transaction.
    enableFee: boolean().notNull().default(false),
    platformFeeCents: integer().notNull().default(0),
    feeThresholdCents: integer().notNull().default(0),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check(
      'organizations_fee_nonnegative',
      sql`${t.platformFeeCents} >= 0 and ${t.feeThresholdCents} >= 0`,
    ),
  ],
);

export const whiteLabels = pgTable(
  'white_labels',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    title: text().notNull(),
    // Host name the site answers on, lower case, without port.
    fqdn: text().notNull(),
    labelLogo: text(),
    supportUrl: text(),
    helpUrl: text(),
    privacyUrl: text(),
    termsUrl: text(),
    refundUrl: text(),
    accessibilityUrl: text(),
    libraryUrl: text(),
    allowEcommerce: boolean().notNull().default(true),
    showEcommerce: boolean().notNull().default(true),
    hasLabelSite: boolean().notNull().default(true),
    isMtcEnabledSite: boolean().notNull().default(false),
    isFollettLabel: boolean().notNull().default(false),
    myShelfEnabled: boolean().notNull().default(true),
    // The partner host exempt from the EULA redirect (spec 1 §2, Routes).
    eulaExempt: boolean().notNull().default(false),
    vsRedirectUrl: text(),
    buyOnVitalsource: boolean().notNull().default(false),
    showVsModal: boolean().notNull().default(false),
    isDashboardEnabled: boolean().notNull().default(false),
    isCampusInsightsEnabled: boolean().notNull().default(false),
    allowedLanguageCodes: text().array().notNull().default(sql`'{en,fr-CA}'::text[]`),
    // Theme variables (colours) the white label overrides.
    theme: jsonb().$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [
    uniqueIndex('white_labels_fqdn_unique').on(t.fqdn),
    check('white_labels_fqdn_lower', sql`${t.fqdn} = lower(${t.fqdn})`),
  ],
);

export const vitalsourceConfigs = pgTable('vitalsource_configs', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  orgId: integer()
    .notNull()
    .unique()
    .references(() => organizations.id),
  buyOnVitalsource: boolean().notNull().default(false),
  showVsModal: boolean().notNull().default(false),
});

export const languages = pgTable('languages', {
  id: integer().primaryKey().generatedAlwaysAsIdentity(),
  code: text().notNull().unique(),
  name: text().notNull(),
});

export const featureFlags = pgTable('feature_flags', {
  key: text().primaryKey(),
  enabled: boolean().notNull().default(false),
  description: text().notNull().default(''),
});

export const banners = pgTable(
  'banners',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    kind: text().notNull(),
    message: text().notNull(),
    // The same message in French; the English one shows when it is missing.
    messageFrCa: text(),
    isActive: boolean().notNull().default(true),
    startsAt: timestamp({ withTimezone: true }),
    endsAt: timestamp({ withTimezone: true }),
  },
  (t) => [check('banners_kind', sql`${t.kind} in ('maintenance', 'merger', 'application')`)],
);
