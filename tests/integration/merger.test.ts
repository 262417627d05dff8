import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import {
  banners,
  featureFlags,
  organizations,
  vitalsourceConfigs,
  whiteLabels,
} from '#db/schema/sites.ts';
import { MERGER_FLAG } from '#domain/sites/merger.ts';
import {
  activeMergerNotice,
  clearSiteCache,
  defaultSite,
  MAIN_SITE_VITALSOURCE_ORG_ID,
  resolveSite,
} from '#domain/sites/service.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

// spec 1 §1 and spec 2 §4: the merger banner, and the modal that opens only when the merger
// feature flag is on, with 'Go To VitalSource'. The flag and the banner are rows of the
// database, read as the root loader reads them (activeMergerNotice).
let database: DatabaseHandle;
const bannerIds: number[] = [];
let labelHost: string;
let mainOrgReady = false;
let previousFlag: boolean | null = null;
let previousMainConfig: boolean | null = null;
const now = new Date();
const DEFAULT_URL = 'https://vitalsource.test/from-configuration';
const LABEL_URL = 'https://label.test/vitalsource';

async function setFlag(enabled: boolean) {
  await database.db
    .insert(featureFlags)
    .values({ key: MERGER_FLAG, enabled })
    .onConflictDoUpdate({ target: featureFlags.key, set: { enabled } });
  clearSiteCache();
}

beforeAll(async () => {
  database = await openTestDatabase();
  const db = database.db;
  const [flag] = await db
    .select({ enabled: featureFlags.enabled })
    .from(featureFlags)
    .where(eq(featureFlags.key, MERGER_FLAG));
  previousFlag = flag?.enabled ?? null;
  // A banner of each kind this test owns; an inactive merger banner must never show.
  const rows = await db
    .insert(banners)
    .values([
      { kind: 'merger', message: 'Stale merger text', isActive: false },
      {
        kind: 'merger',
        message: 'Shelfmark is joining VitalSource.',
        messageFrCa: 'Shelfmark se joint à VitalSource.',
        isActive: true,
      },
    ])
    .returning({ id: banners.id });
  bannerIds.push(...rows.map((r) => r.id));
  // A white label that shows the modal, with its own address.
  const [org] = await db
    .insert(organizations)
    .values({ title: unique('Merger org') })
    .returning({ id: organizations.id });
  labelHost = `${unique('merger').toLowerCase()}.label.test`;
  await db.insert(whiteLabels).values({
    orgId: org!.id,
    title: 'Merger Label',
    fqdn: labelHost,
    showVsModal: true,
    vsRedirectUrl: LABEL_URL,
  });
  // spec 2 §9: the main site reads organisation 1's config. On a fresh database the first
  // organisation made is number 1; on a shared server it exists already.
  const [one] = await db
    .select({ id: organizations.id })
    .from(organizations)
    .where(eq(organizations.id, MAIN_SITE_VITALSOURCE_ORG_ID));
  mainOrgReady = !!one || org!.id === MAIN_SITE_VITALSOURCE_ORG_ID;
  if (mainOrgReady) {
    const [config] = await db
      .select({ showVsModal: vitalsourceConfigs.showVsModal })
      .from(vitalsourceConfigs)
      .where(eq(vitalsourceConfigs.orgId, MAIN_SITE_VITALSOURCE_ORG_ID));
    previousMainConfig = config?.showVsModal ?? null;
  }
});

afterAll(async () => {
  const db = database.db;
  await db.delete(banners).where(inArray(banners.id, bannerIds));
  await db.delete(whiteLabels).where(eq(whiteLabels.fqdn, labelHost));
  if (previousFlag === null) await db.delete(featureFlags).where(eq(featureFlags.key, MERGER_FLAG));
  else await setFlag(previousFlag);
  if (mainOrgReady && previousMainConfig === null) {
    await db
      .delete(vitalsourceConfigs)
      .where(eq(vitalsourceConfigs.orgId, MAIN_SITE_VITALSOURCE_ORG_ID));
  } else if (mainOrgReady) {
    await setMainConfig(previousMainConfig!);
  }
  await database?.close();
});

beforeEach(() => clearSiteCache());

async function setMainConfig(showVsModal: boolean) {
  await database.db
    .insert(vitalsourceConfigs)
    .values({ orgId: MAIN_SITE_VITALSOURCE_ORG_ID, showVsModal })
    .onConflictDoUpdate({ target: vitalsourceConfigs.orgId, set: { showVsModal } });
  clearSiteCache();
}

describe('the merger notice (activeMergerNotice)', () => {
  it('spec 2 §4: with the merger flag off, no banner and no modal, on any site', async () => {
    await setFlag(false);
    const label = await resolveSite(database.db, labelHost);
    expect(await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL)).toBeNull();
    expect(
      await activeMergerNotice(database.db, now, 'en', defaultSite('localhost'), DEFAULT_URL),
    ).toBeNull();
  });

  it('spec 1 §1: with the flag on, a white label shows the active banner and opens the modal to its own address', async () => {
    await setFlag(true);
    const label = await resolveSite(database.db, labelHost);
    expect(await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL)).toEqual({
      message: 'Shelfmark is joining VitalSource.',
      modalUrl: LABEL_URL,
    });
    expect((await activeMergerNotice(database.db, now, 'fr-CA', label, DEFAULT_URL))?.message).toBe(
      'Shelfmark se joint à VitalSource.',
    );
  });

  it('a white label without an address of its own sends the button to the configured one', async () => {
    await setFlag(true);
    await database.db
      .update(whiteLabels)
      .set({ vsRedirectUrl: null })
      .where(eq(whiteLabels.fqdn, labelHost));
    clearSiteCache();
    const label = await resolveSite(database.db, labelHost);
    expect((await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL))?.modalUrl).toBe(
      DEFAULT_URL,
    );
    // Nowhere to go: the banner still announces the merger, the modal stays shut.
    expect(await activeMergerNotice(database.db, now, 'en', label, null)).toEqual({
      message: 'Shelfmark is joining VitalSource.',
      modalUrl: null,
    });
    await database.db
      .update(whiteLabels)
      .set({ vsRedirectUrl: LABEL_URL })
      .where(eq(whiteLabels.fqdn, labelHost));
  });

  it('a white label that does not show the modal gets the banner only', async () => {
    await setFlag(true);
    await database.db
      .update(whiteLabels)
      .set({ showVsModal: false })
      .where(eq(whiteLabels.fqdn, labelHost));
    clearSiteCache();
    const label = await resolveSite(database.db, labelHost);
    expect((await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL))?.modalUrl).toBe(
      null,
    );
    await database.db
      .update(whiteLabels)
      .set({ showVsModal: true })
      .where(eq(whiteLabels.fqdn, labelHost));
  });

  it('spec 2 §7, §9: the main site opens the modal as organisation 1’s vitalsource config says', async (context) => {
    if (!mainOrgReady) context.skip();
    await setFlag(true);
    const main = defaultSite('localhost');
    await setMainConfig(true);
    expect((await activeMergerNotice(database.db, now, 'en', main, DEFAULT_URL))?.modalUrl).toBe(
      DEFAULT_URL,
    );
    await setMainConfig(false);
    expect(await activeMergerNotice(database.db, now, 'en', main, DEFAULT_URL)).toEqual({
      message: 'Shelfmark is joining VitalSource.',
      modalUrl: null,
    });
  });

  it('is read once per 30 s like the maintenance banner, and forgotten when a site changes', async () => {
    await setFlag(true);
    const label = await resolveSite(database.db, labelHost);
    expect(await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL)).not.toBeNull();
    // Turned off behind the cache's back: still on until the cache is told (clearTimedCaches
    // on the change notification of migration 0004).
    await database.db
      .update(featureFlags)
      .set({ enabled: false })
      .where(and(eq(featureFlags.key, MERGER_FLAG)));
    expect(await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL)).not.toBeNull();
    clearSiteCache();
    expect(await activeMergerNotice(database.db, now, 'en', label, DEFAULT_URL)).toBeNull();
  });
});
