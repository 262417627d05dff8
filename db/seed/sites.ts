// Organisations, white-label sites and site-wide settings of the demo (spec 1 §1, §3 White
// label, Vitalsource config, Language; spec 2 §9).
import type { Queryable } from '#db/client.ts';
import {
  banners,
  featureFlags,
  languages,
  organizations,
  vitalsourceConfigs,
  whiteLabels,
} from '#db/schema/sites.ts';

export type DemoOrgs = {
  /** A plain campus on inclusive access; organisation id 1 on a fresh database. */
  campus: number;
  /** Code Delivery System campus. */
  cds: number;
  /** The retailer bookstore-partner with its own white-label site. */
  retailer: number;
  /** A partner with a white-label site on another host. */
  partner: number;
};

export const BOOKSTORE_HOST = 'bookstore.localhost';
export const PARTNER_HOST = 'partner.localhost';

export const MAINTENANCE_MESSAGE =
  'Scheduled maintenance: Shelfmark will be read-only on Sunday from 02:00 to 04:00 UTC.';
const MAINTENANCE_MESSAGE_FR =
  'Maintenance prévue : Shelfmark sera en lecture seule dimanche de 2 h à 4 h UTC.';
const MERGER_MESSAGE_FR =
  'Shelfmark se joint à VitalSource. Les prochains achats se feront sur VitalSource; le matériel que vous possédez déjà reste accessible ici.';
const MERGER_MESSAGE =
  'Shelfmark is joining VitalSource. Future purchases will be made through VitalSource; the materials you already own stay available here.';

export async function seedSites(db: Queryable): Promise<DemoOrgs> {
  // One statement so the ids follow this order (the campus is organisation 1).
  const orgs = await db
    .insert(organizations)
    .values([
      {
        title: 'Northfield State University',
        contactName: 'Office of the Registrar',
        phoneNumber: '+1 555 010 2000',
        emailAddress: 'registrar@northfield.example.edu',
        // Printed on receipts (issue 20).
        postalAddress: '100 University Avenue\nNorthfield, MN 55057\nUnited States',
      },
      {
        title: 'Lakeshore Community College',
        contactName: 'Course Materials Office',
        phoneNumber: '+1 555 010 3000',
        emailAddress: 'materials@lakeshore.example.edu',
        isCdsEnabled: true,
      },
      {
        title: 'Riverbend University Bookstore',
        contactName: 'Bookstore Textbook Desk',
        phoneNumber: '+1 555 010 4000',
        emailAddress: 'textbooks@riverbend.example.edu',
        isRetailer: true,
        isBookstorePartner: true,
        purchaseModalEnabled: true,
        partnerStoreUrl: 'https://store.riverbend.example.edu/course-materials',
        helpUrl: '/help/bookstore',
        enableFee: true,
        platformFeeCents: 199,
        feeThresholdCents: 5000,
      },
      {
        title: 'Harbor Learning Partners',
        contactName: 'Partner Support',
        phoneNumber: '+1 555 010 5000',
        emailAddress: 'support@harbor.example.com',
      },
    ])
    .returning({ id: organizations.id });
  const [campus, cds, retailer, partner] = orgs.map((o) => o.id) as [
    number,
    number,
    number,
    number,
  ];

  await db.insert(whiteLabels).values([
    {
      orgId: retailer,
      title: 'Riverbend Campus Bookstore',
      fqdn: BOOKSTORE_HOST,
      supportUrl: '/support',
      helpUrl: '/help',
      privacyUrl: '/privacy',
      termsUrl: '/terms',
      refundUrl: '/refund-policy',
      accessibilityUrl: '/accessibility',
      libraryUrl: '/library/',
      allowEcommerce: true,
      showEcommerce: true,
      theme: { '--color-brand': '#7a1f2b' },
    },
    {
      orgId: partner,
      title: 'Harbor Learning',
      fqdn: PARTNER_HOST,
      supportUrl: '/support',
      helpUrl: '/help',
      privacyUrl: '/privacy',
      termsUrl: '/terms',
      refundUrl: '/refund-policy',
      accessibilityUrl: '/accessibility',
      libraryUrl: '/library/',
      allowEcommerce: true,
      showEcommerce: true,
      // The one partner host exempt from the EULA redirect (spec 1 §2).
      eulaExempt: true,
      isDashboardEnabled: true,
      isCampusInsightsEnabled: true,
      allowedLanguageCodes: ['en', 'fr-CA'],
      theme: { '--color-brand': '#0b5394', '--color-brand-contrast': '#ffffff' },
    },
  ]);

  // spec 2 §9: the vitalsource config is read for organisation 1.
  await db.insert(vitalsourceConfigs).values({
    orgId: campus,
    buyOnVitalsource: false,
    showVsModal: true,
  });

  await db.insert(languages).values([
    { code: 'en', name: 'English' },
    { code: 'fr-CA', name: 'Français (Canada)' },
  ]);

  await db.insert(featureFlags).values([
    {
      key: 'merger',
      enabled: false,
      description: 'Show the merger banner and modal (Go To VitalSource).',
    },
    {
      key: 'maintenance_banner',
      enabled: true,
      description: 'Show the active maintenance banner.',
    },
  ]);

  await db.insert(banners).values([
    {
      kind: 'maintenance',
      message: MAINTENANCE_MESSAGE,
      messageFrCa: MAINTENANCE_MESSAGE_FR,
      isActive: true,
    },
    { kind: 'merger', message: MERGER_MESSAGE, messageFrCa: MERGER_MESSAGE_FR, isActive: false },
  ]);

  return { campus, cds, retailer, partner };
}
