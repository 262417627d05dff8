import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { featureFlags } from '#db/schema/sites.ts';
import { MERGER_FLAG } from '#domain/sites/merger.ts';
import { clearSiteCache } from '#domain/sites/service.ts';
import { openTestDatabase, testWebContext } from '#tests/database.ts';

// spec 1 §3 Login: navigationInfo.hasCookies and enabledFeatures, told as they are (issue 13:
// hasCookies was always true, so nothing could tell a browser that refuses cookies).
let database: DatabaseHandle;
let previousFlag: boolean | null = null;
beforeAll(async () => {
  database = await openTestDatabase();
  const [flag] = await database.db
    .select({ enabled: featureFlags.enabled })
    .from(featureFlags)
    .where(eq(featureFlags.key, MERGER_FLAG));
  previousFlag = flag?.enabled ?? null;
});
afterAll(async () => {
  if (previousFlag === null) {
    await database.db.delete(featureFlags).where(eq(featureFlags.key, MERGER_FLAG));
  } else {
    await database.db
      .update(featureFlags)
      .set({ enabled: previousFlag })
      .where(eq(featureFlags.key, MERGER_FLAG));
  }
  await database?.close();
});

async function loginStatus(cookie?: string) {
  const response = await handleApiRequest(
    new Request('http://localhost/api/account/login', {
      headers: cookie ? { cookie } : {},
    }),
    testWebContext(database),
  );
  expect(response.status).toBe(200);
  return (await response.json()).data.attributes;
}

describe('GET /api/account/login', () => {
  it('spec 1 §3: hasCookies is false when the browser sent none of our cookies back', async () => {
    expect((await loginStatus()).navigationInfo.hasCookies).toBe(false);
    expect((await loginStatus('other=1')).navigationInfo.hasCookies).toBe(false);
  });

  it('spec 1 §3: hasCookies is true when the session, visitor or language cookie came back', async () => {
    for (const cookie of ['sid=abc', 'anon=abcdefghijklmnopqrstuvwxyz', 'x=1; LANG=fr-CA']) {
      expect((await loginStatus(cookie)).navigationInfo.hasCookies, cookie).toBe(true);
    }
  });

  it('spec 1 §3: enabledFeatures says whether the merger flag is on', async () => {
    for (const enabled of [true, false]) {
      await database.db
        .insert(featureFlags)
        .values({ key: MERGER_FLAG, enabled })
        .onConflictDoUpdate({ target: featureFlags.key, set: { enabled } });
      clearSiteCache();
      expect((await loginStatus()).enabledFeatures).toMatchObject({ merger: enabled });
    }
  });
});
