import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { DEFAULT_READER_SETTINGS } from '#domain/reading/reader-settings.ts';
import { savedReaderSettings } from '#domain/reading/settings-service.ts';
import type { WebContext } from '#server/load-context.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 16, reading settings "remembered per user": GET and PUT /api/reading/settings.

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function newUser(): Promise<SessionUser> {
  const userId = await createUser(database.db, {
    email: `${unique('reader-settings')}@example.test`,
    password: 'pw-123456',
    firstName: 'R',
    lastName: 'S',
  });
  return (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
}

const as = (user: SessionUser | null, locale: 'en' | 'fr-CA' = 'en'): WebContext =>
  testWebContext(database, { user, locale });

const get = (context: WebContext) =>
  handleApiRequest(new Request('http://localhost/api/reading/settings'), context);

const put = (context: WebContext, body: unknown) =>
  handleApiRequest(
    new Request('http://localhost/api/reading/settings', {
      method: 'PUT',
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'Content-Type': 'application/vnd.api+json' },
    }),
    context,
  );

const document = (attributes: Record<string, unknown>) => ({
  data: { type: 'reader-settings', attributes },
});

const chosen = {
  layout: 'scrolled',
  fontScale: 125,
  font: 'dyslexic',
  lineSpacing: 'relaxed',
  margins: 'wide',
  theme: 'dark',
};

describe('reading settings API (issue 16: remembered per user, on every device)', () => {
  it('someone who never chose any gets the defaults; what they save comes back, to them only', async () => {
    const reader = await newUser();
    const other = await newUser();
    const first = await get(as(reader));
    expect(first.status).toBe(200);
    expect((await first.json()).data.attributes).toEqual(DEFAULT_READER_SETTINGS);
    expect(await savedReaderSettings(testContext(database.db, { user: reader }))).toBeNull();

    const saved = await put(as(reader), document(chosen));
    expect(saved.status).toBe(200);
    expect((await saved.json()).data).toEqual({
      type: 'reader-settings',
      id: 'me',
      attributes: chosen,
    });
    // Another device: a new request of the same user.
    expect((await (await get(as(reader))).json()).data.attributes).toEqual(chosen);
    expect((await (await get(as(other))).json()).data.attributes).toEqual(DEFAULT_READER_SETTINGS);

    // The last write wins.
    await put(as(reader), document({ ...chosen, theme: 'sepia' }));
    expect((await (await get(as(reader))).json()).data.attributes.theme).toBe('sepia');
  });

  it('a visitor is asked to log in, in their language, and nothing is saved', async () => {
    for (const response of [
      await get(as(null, 'fr-CA')),
      await put(as(null, 'fr-CA'), document(chosen)),
    ]) {
      expect(response.status).toBe(401);
      const body = await response.json();
      expect(body.errors[0].code).toBe('error.loginRequired');
      expect(body.errors[0].detail).toMatch(/connect/i);
    }
  });

  it('bad input is a 400 that changes nothing: unknown values, missing or extra settings, wrong types', async () => {
    const reader = await newUser();
    await put(as(reader), document(chosen));
    const bad: unknown[] = [
      document({ ...chosen, theme: 'neon' }),
      document({ ...chosen, fontScale: 101 }),
      document({ ...chosen, fontScale: '125' }),
      document({ ...chosen, font: 'Comic Sans' }),
      document({ ...chosen, lineSpacing: null }),
      document({ ...chosen, margins: ['wide'] }),
      document({ ...chosen, layout: 'x'.repeat(100_000) }),
      document({ ...chosen, extra: 1 }),
      document({ layout: 'scrolled' }),
      { data: { type: 'reading-position', attributes: chosen } },
      { data: [] },
      [],
      'null',
      '{"data":',
    ];
    for (const body of bad) {
      const response = await put(as(reader), body);
      expect(response.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect((await response.json()).errors[0].detail).toBeTruthy();
    }
    expect((await (await get(as(reader))).json()).data.attributes).toEqual(chosen);
  });
});
