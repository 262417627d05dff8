import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type SimpleSamlPhp,
  simpleSamlPhpInstalled,
  startSimpleSamlPhp,
} from '#tests/simplesamlphp.ts';
import { freePort } from '../resilience/harness.ts';
import { baseUrl, launchBrowser, newContext, waitForHydration } from './browser.ts';
import { makeSamlCampus } from './fixtures.ts';

// Issue 37, "Campus sign-in, for real": a student signs in through a real SAML IdP
// (SimpleSAMLphp from Debian, on 127.0.0.1) in Chromium, as a student does: their campus
// address on our login page, the campus's own login form, and the IdP's page posting its
// signed answer to our ACS from its own origin (HTTP-POST binding). That cross-site POST, with
// the IdP's Origin, used to be refused by React Router's own CSRF check before any SAML check
// ran (HTTP 400 for every real sign-in); our earlier tests posted without an Origin.

const installed = simpleSamlPhpInstalled();
if (process.env.CI && !installed) {
  throw new Error('SimpleSAMLphp is required in CI: apt-get install simplesamlphp php-cli php-xml');
}

const SP_ENTITY_ID = 'https://shelfmark.test/saml/sp-journey';
const domain = `saml-${process.pid}-${Date.now().toString(36)}.campus.test`;
let browser: Browser;
let idp: SimpleSamlPhp;
let campusTitle = '';

beforeAll(async () => {
  if (!installed) return;
  browser = await launchBrowser();
  idp = await startSimpleSamlPhp({
    port: await freePort(),
    spEntityId: SP_ENTITY_ID,
    acsUrl: `${baseUrl().replace(/\/$/, '')}/accounts/campus/saml/acs`,
    users: [
      {
        username: 'rosa',
        password: 'rosa-campus-password',
        uid: `rosa-${domain}`,
        mail: `rosa@${domain}`,
        givenName: 'Rosa',
        sn: 'Parks',
      },
    ],
  });
  campusTitle = (
    await makeSamlCampus({
      domain,
      entityId: idp.entityId,
      ssoUrl: idp.ssoUrl,
      certificate: idp.certificate,
      spEntityId: SP_ENTITY_ID,
    })
  ).title;
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await idp?.close();
});

describe.skipIf(!installed)('Campus sign-in with SAML, in a browser (issue 37)', () => {
  it('a student signs in at the SAML IdP and comes back signed in to the store', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const posted: { origin: string | null; status: number }[] = [];
    page.on('response', (response) => {
      const request = response.request();
      if (request.method() === 'POST' && new URL(response.url()).pathname.includes('/saml/acs')) {
        posted.push({ origin: request.headers().origin ?? null, status: response.status() });
      }
    });
    await page.goto('/accounts/login/?next=/shelf');
    await waitForHydration(page);
    await page.getByLabel('E-mail').fill(`rosa@${domain}`);
    await page.getByText(`${campusTitle} signs you in with your campus account.`).waitFor();
    await page.getByRole('link', { name: 'Sign in with your campus' }).click();

    // SimpleSAMLphp's own login form, on its own origin.
    await page.waitForURL((url) => url.origin === new URL(idp.ssoUrl).origin);
    await page.locator('input[name="username"]').fill('rosa');
    await page.locator('input[name="password"]').fill('rosa-campus-password');
    await page.locator('input[name="password"]').press('Enter');

    // Its page posts the signed answer to our ACS from its origin, and we sign her in.
    const store = new URL(baseUrl()).origin;
    await page.waitForURL(
      (url) => url.origin === store && !url.pathname.startsWith('/accounts/campus/'),
      { timeout: 30_000 },
    );
    expect(posted).toHaveLength(1);
    expect(posted[0]!.origin).toBe(new URL(idp.ssoUrl).origin);
    expect(posted[0]!.status).toBe(303);
    const account = await page.evaluate(async () => {
      const response = await fetch('/api/account/login', {
        headers: { Accept: 'application/vnd.api+json' },
      });
      return (await response.json()).data.attributes;
    });
    expect(account).toMatchObject({ isLoggedIn: true });
    await context.close();
  });
});
