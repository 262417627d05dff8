import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 3: anonymous catalog pages carry Cache-Control and ETag and answer 304; nothing
// personal is cached or shareable.
const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(new URL(path, baseUrl()), { headers, redirect: 'manual' });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('caching of catalog pages', () => {
  it('an anonymous product page is public, has an ETag, sets no cookie and answers 304', async () => {
    const first = await get('/book/1');
    expect(first.status).toBe(301);
    const path = first.headers.get('location')!;
    const page = await get(path);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('public, no-cache');
    expect(page.headers.get('vary')).toContain('Cookie');
    expect(page.headers.get('set-cookie')).toBeNull();
    const etag = page.headers.get('etag')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const html = await page.text();
    // Forms on a shared page carry no token: each browser fetches its own.
    expect(html).not.toMatch(/name="csrfmiddlewaretoken" value="[^"]+"/);
    expect(html).not.toContain('"csrfToken":"');
    expect(page.headers.get('content-security-policy')).toMatch(
      /script-src 'self'( 'sha256-[^']+')+;/,
    );

    const again = await get(path, { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    const french = await get(path, { 'Accept-Language': 'fr-CA' });
    expect(french.headers.get('etag')).not.toBe(etag);
    expect(await french.text()).toContain('lang="fr-CA"');
  });

  it('a logged-in product page is private and never stored', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student' }));
    const response = await page.goto('/book/2');
    expect(response?.headers()['cache-control']).toBe('private, no-store');
    expect(response?.headers().etag).toBeUndefined();
    await page.getByRole('button', { name: /Maya/ }).waitFor();
    await context.close();
  });

  it('the language modal still works on a shared anonymous page (token fetched on demand)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/search?terms=biology');
    await waitForHydration(page);
    await page.getByRole('link', { name: 'Language: English' }).click();
    const dialog = page.getByRole('dialog', { name: 'Choose your language' });
    await dialog.getByLabel('Français (Canada)').check();
    await dialog.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('heading', { name: 'Résultats de recherche pour biology.' }).waitFor();
    await context.close();
  });
});
