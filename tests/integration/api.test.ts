import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleApiRequest } from '#api/router.ts';
import type { DatabaseHandle } from '#db/client.ts';
import { createUser, loadSessionUser } from '#domain/accounts/service.ts';
import type { WebContext } from '#server/load-context.ts';
import { openTestDatabase, testWebContext, unique } from '#tests/database.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

function webContext(overrides: Partial<WebContext['rc']> = {}): WebContext {
  return testWebContext(database, overrides);
}

const post = (path: string, body: string) =>
  new Request(`http://localhost${path}`, {
    method: 'POST',
    body,
    headers: { 'Content-Type': 'application/vnd.api+json' },
  });

describe('JSON:API adapter', () => {
  it('login status for a visitor: not logged in, with a CSRF token and both languages', async () => {
    const response = await handleApiRequest(
      new Request('http://localhost/api/account/login'),
      webContext(),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.api+json');
    const body = await response.json();
    expect(body.data.attributes).toMatchObject({ isLoggedIn: false, csrfToken: 'token' });
    expect(body.data.attributes.navigationInfo.allowedLanguageCodes).toEqual(['en', 'fr-CA']);
  });

  it('login status for a user includes the user and their account flags', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('api')}@example.test`,
      password: 'pw-123456',
      firstName: 'Iris',
      lastName: 'K',
    });
    const user = await loadSessionUser(database.db, { userId, impersonatorId: null });
    const body = await (
      await handleApiRequest(
        new Request('http://localhost/api/account/login'),
        webContext({ user }),
      )
    ).json();
    expect(body.data.attributes.isLoggedIn).toBe(true);
    expect(body.included[0].attributes.firstName).toBe('Iris');
    expect(body.data.attributes.navigationInfo).toMatchObject({
      isManager: false,
      myShelfEnabled: true,
    });
  });

  it('spec 2 §7 change language: stores the choice for a user and sets LANG', async () => {
    const userId = await createUser(database.db, {
      email: `${unique('lang')}@example.test`,
      password: 'pw-123456',
      firstName: 'L',
      lastName: 'L',
    });
    const user = await loadSessionUser(database.db, { userId, impersonatorId: null });
    const response = await handleApiRequest(
      post('/api/account/user/me/change-language', '{"language":"fr-CA"}'),
      webContext({ user }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toContain('LANG=fr-CA');
    expect(
      (await loadSessionUser(database.db, { userId, impersonatorId: null }))?.languageCode,
    ).toBe('fr-CA');
  });

  it('spec 2 §7 change language also takes a JSON:API document of type Language', async () => {
    const response = await handleApiRequest(
      post(
        '/api/account/user/me/change-language',
        '{"data":{"type":"Language","attributes":{"language":"fr-CA"}}}',
      ),
      webContext(),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('set-cookie')).toContain('LANG=fr-CA');
    expect((await response.json()).data).toMatchObject({ type: 'Language', id: 'fr-CA' });
  });

  it.each([
    ['not JSON', '{language'],
    ['a wrong type', '{"language": 42}'],
    ['an unknown language', '{"language":"de"}'],
    ['a huge string', JSON.stringify({ language: 'x'.repeat(200_000) })],
    ['extra fields', '{"language":"en","admin":true}'],
    [
      'a JSON:API document of another type',
      '{"data":{"type":"cart-item","attributes":{"language":"en"}}}',
    ],
    ['a JSON:API document of type User', '{"data":{"type":"User","attributes":{"language":"en"}}}'],
    ['a JSON:API document without a type', '{"data":{"attributes":{"language":"en"}}}'],
  ])('change language with %s is a 400 with a message in the user language', async (_name, body) => {
    const response = await handleApiRequest(
      post('/api/account/user/me/change-language', body),
      webContext({ locale: 'fr-CA' }),
    );
    expect(response.status).toBe(400);
    const json = await response.json();
    expect(json.errors[0].detail).toMatch(/(n’est pas|pas valide)/);
  });

  it('unknown API paths are 404 and wrong methods 405, as JSON:API errors', async () => {
    const missing = await handleApiRequest(
      new Request('http://localhost/api/nothing/here'),
      webContext(),
    );
    expect(missing.status).toBe(404);
    // Issue 13: the API does not call its resources pages.
    expect((await missing.json()).errors[0].detail).toBe('Nothing was found at this address.');
    const wrong = await handleApiRequest(
      new Request('http://localhost/api/account/login', { method: 'DELETE' }),
      webContext(),
    );
    expect(wrong.status).toBe(405);
  });

  it('a page view is stored; a bad one is refused', async () => {
    const ok = await handleApiRequest(
      post('/api/events/page-view', '{"path":"/search?terms=x"}'),
      webContext(),
    );
    expect(ok.status).toBe(204);
    const bad = await handleApiRequest(
      post('/api/events/page-view', '{"path":"http://evil"}'),
      webContext(),
    );
    expect(bad.status).toBe(400);
  });
});
