import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  chooseLanguage,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { feedEbook, makeOwnership, makeUser } from './fixtures.ts';

// Issue 40, decision 043: a logged-in visitor's product page is the stored anonymous page plus
// their personal part. It shows who they are and what they own, in their language, to a
// browser with or without JavaScript; the stored page never carries a personal byte.
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, baseUrl()), { headers, redirect: 'manual' });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function sessionOf(context: BrowserContext): Promise<string> {
  const sid = (await context.cookies()).find((cookie) => cookie.name === 'sid');
  if (!sid) throw new Error('no session cookie');
  return `sid=${sid.value}`;
}

/** The page's path, fetched anonymously until the server has stored it. */
async function storedPath(productId: number, headers: Record<string, string> = {}) {
  const path = (await get(`/book/${productId}`)).headers.get('location')!;
  for (let i = 0; i < 20; i += 1) {
    const page = await get(path, headers);
    await page.arrayBuffer();
    if (page.headers.get('etag')) return path;
  }
  throw new Error(`${path} was not stored`);
}

describe('logged-in pages composed from the stored page (decision 043)', () => {
  it("shows the owner's name, their title on the shelf and Read Now, and stores nothing of theirs", async () => {
    const productId = await feedEbook();
    const owner = await makeUser();
    const other = await makeUser();
    await makeOwnership(owner.email, productId);
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, owner);
    const session = await sessionOf(context);
    // The page stored, then asked for with the session. Journeys running beside this one change
    // products (a sale moves a related book), and each change forgets the stored pages that
    // show it; a page asked for before it is stored again is rendered whole, as it should be.
    // That is not this test's case: it asks again, at most five times.
    let path = '';
    let anonymousBefore = '';
    let composed: Response | null = null;
    for (let attempt = 0; attempt < 5; attempt += 1) {
      path = await storedPath(productId);
      anonymousBefore = await (await get(path)).text();
      const response = await get(path, { cookie: session });
      if (response.headers.get('cache-control') === 'private, no-store') {
        const body = await response.clone().text();
        if (body.includes('id="personal-part"')) {
          composed = response;
          break;
        }
      }
      await response.arrayBuffer();
    }
    if (!composed) throw new Error(`${path} was never composed from its stored page`);
    expect(composed.headers.get('cache-control')).toBe('private, no-store');
    expect(composed.headers.get('etag')).toBeNull();
    const html = await composed.text();
    expect(html).toContain('id="personal-part"');
    // Without JavaScript: the navbar says who is logged in, written by the server.
    expect(html).toMatch(
      new RegExp(
        `data-personal-slot="navbar">[\\s\\S]*user-menu__trigger[\\s\\S]*${owner.firstName}`,
      ),
    );
    expect(html).not.toMatch(/data-personal-slot="navbar">(?:(?!<\/ul>)[\s\S])*>Log In</);
    expect(html).toContain('"owned":true');
    expect(html).toMatch(/"opens":\{"entry":"read"/);
    // Without JavaScript: what they own and the way in, written by the server in the page's
    // own words, and no buy panel for a book they have.
    const owned = /data-personal-slot="owned">([\s\S]*?)<\/div><\/div>/.exec(html)?.[1] ?? '';
    expect(owned).toContain('You already own this title.');
    expect(owned).toMatch(new RegExp(`href="/book/read/${productId}/"[^>]*>Read Now<`));
    expect(html).toMatch(/data-personal-slot="buy"><\/div>/);

    // With JavaScript: the same header from the first paint on, and what they own after.
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    await page.goto(path);
    await waitForHydration(page);
    await page.getByText('You already own this title.').waitFor();
    await page.getByRole('link', { name: 'Read Now' }).waitFor();
    await page.getByRole('button', { name: owner.firstName }).waitFor();
    expect(await page.getByRole('link', { name: 'Log In' }).count()).toBe(0);
    expect(errors.filter((text) => /hydrat/i.test(text))).toEqual([]);
    // A client navigation and back: still logged in (the root's data is the composed one).
    await page
      .getByRole('link', { name: /Shelfmark/ })
      .first()
      .click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('button', { name: owner.firstName }).waitFor();

    // Another user sees their own part, never the owner's.
    const otherContext = await newContext(browser);
    const otherPage = await otherContext.newPage();
    await logIn(otherPage, other);
    const otherHtml = await (await get(path, { cookie: await sessionOf(otherContext) })).text();
    expect(otherHtml).toContain('"owned":false');
    expect(otherHtml).toMatch(/data-personal-slot="owned"><\/div>/);
    expect(otherHtml).not.toContain('You already own this title.');
    expect(otherHtml).not.toContain(await ownerToken(html));

    // An anonymous visitor afterwards gets the stored page, byte for byte, with nothing personal.
    const anonymousAfter = await (await get(path)).text();
    expect(anonymousAfter).toBe(anonymousBefore);
    expect(anonymousAfter).not.toContain('personal-part');
    expect(anonymousAfter).not.toContain('"csrfToken":"');
    expect(anonymousAfter).not.toContain('user-menu__trigger');
    await context.close();
    await otherContext.close();
  });

  it('a French-speaking user gets the French stored page with their part', async () => {
    const productId = await feedEbook();
    const user = await makeUser();
    await makeOwnership(user.email, productId);
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, user);
    let path = await storedPath(productId, { 'Accept-Language': 'fr-CA' });
    await chooseLanguage(page, 'Français (Canada)', path);
    const session = await sessionOf(context);
    // Stored again if a journey beside this one changed a product it shows (see above).
    let html = await (await get(path, { cookie: session })).text();
    for (let attempt = 0; attempt < 5 && !html.includes('id="personal-part"'); attempt += 1) {
      path = await storedPath(productId, { 'Accept-Language': 'fr-CA' });
      html = await (await get(path, { cookie: session })).text();
    }
    expect(html).toContain('lang="fr-CA"');
    expect(html).toContain('id="personal-part"');
    expect(html).toContain('"owned":true');
    await page.goto(path);
    await waitForHydration(page);
    await page.getByText('Vous possédez déjà ce titre.').waitFor();
    await page.getByRole('button', { name: user.firstName }).waitFor();
    await context.close();
  });
});

describe('a session cookie that no longer opens a session (decision 044)', () => {
  it('on a stored page: the anonymous page, whole, with Log In, and no personal part', async () => {
    const productId = await feedEbook();
    const path = await storedPath(productId);
    // A signed-out browser still sending its old cookie: let past the line as composable, it
    // is rendered whole for a visitor without a session.
    const response = await get(path, { cookie: 'sid=a-session-that-ended-long-ago-0000000000' });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).not.toContain('id="personal-part"');
    expect(html).toContain('href="/accounts/login/');
    expect(response.headers.get('cache-control')).toContain('no-store');
  });
});

/** The composed page's form token: it must appear in no other visitor's page. */
async function ownerToken(html: string): Promise<string> {
  const token = /"csrfToken":"([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('no token in the personal part');
  return token;
}
