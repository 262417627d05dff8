import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeOrganization, makeUser } from './fixtures.ts';

// Issue 20, tried as the store's manager would: from My Account to the campus sign-in settings,
// a SAML campus added by pasting its IdP's metadata (a DOCTYPE refused first), listed with our
// metadata address for the campus IT, which answers our SP metadata; then the page in French.
// Students and bookstore managers are refused.

let browser: Browser;
let keyDir = '';
let certBody = '';

beforeAll(async () => {
  browser = await launchBrowser();
  keyDir = mkdtempSync(path.join(tmpdir(), 'campus-settings-e2e-'));
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', '/CN=idp'],
      ...['-keyout', path.join(keyDir, 'key.pem'), '-out', path.join(keyDir, 'cert.pem')],
    ],
    { stdio: 'ignore' },
  );
  certBody = readFileSync(path.join(keyDir, 'cert.pem'), 'utf8')
    .replace(/-----[A-Z ]+-----/g, '')
    .replace(/\s+/g, '');
});
afterAll(async () => {
  await browser?.close();
  if (keyDir) rmSync(keyDir, { recursive: true, force: true });
});

function metadata(domain: string): string {
  return `<?xml version="1.0"?>
<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="https://idp.${domain}/simplesaml/saml2/idp/metadata.php">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing">
      <ds:KeyInfo><ds:X509Data><ds:X509Certificate>${certBody}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>
    </md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.${domain}/simplesaml/saml2/idp/SSOService.php"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}

describe('Campus sign-in settings (issue 20)', () => {
  it('a manager adds a SAML campus from its metadata and gives its IT our metadata address', async () => {
    const org = await makeOrganization();
    const domain = `college-${process.pid}-${org.id}.test`;
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'manager', label: 'campus-settings' }));
    await page.goto('/account');
    await page.getByRole('link', { name: 'Campus sign-in settings' }).click();
    await page.getByRole('heading', { name: 'Campus sign-in settings', level: 1 }).waitFor();
    await waitForHydration(page);
    await expectAccessible(page);

    await page.getByLabel('Organisation').selectOption({ label: org.title });
    await page.getByLabel('Protocol').selectOption({ label: 'SAML 2.0' });
    await page.getByLabel('E-mail domains').fill(domain.toUpperCase());
    const pasted = page.getByLabel('IdP metadata (paste the XML)');
    // Metadata with entities is refused, with its reason, and nothing is saved.
    await pasted.fill(`<!DOCTYPE x [<!ENTITY a "b">]>${metadata(domain)}`);
    await page.getByRole('button', { name: 'Save campus sign-in' }).click();
    await page
      .getByText('Metadata with a DOCTYPE or entities is refused: paste it without.')
      .waitFor();
    await expectAccessible(page);
    expect(await page.getByRole('row', { name: new RegExp(org.title) }).count()).toBe(0);

    await pasted.fill(metadata(domain));
    await page.getByRole('button', { name: 'Save campus sign-in' }).click();
    await page.getByText('The campus sign-in is saved.').waitFor();
    const row = page.getByRole('table', { name: 'Campus sign-ins' }).getByRole('row', {
      name: new RegExp(org.title),
    });
    await row.waitFor();
    expect(await row.getByRole('cell').allInnerTexts()).toEqual(
      expect.arrayContaining([
        'SAML 2.0',
        domain,
        `https://idp.${domain}/simplesaml/saml2/idp/metadata.php`,
      ]),
    );
    const metadataLink = row.getByRole('link', { name: /\/accounts\/campus\/saml\/metadata\// });
    const metadataUrl = (await metadataLink.getAttribute('href')) ?? '';
    expect(metadataUrl).toMatch(
      new RegExp(`^${baseUrl().replace(/\/$/, '')}/accounts/campus/saml/metadata/\\d+$`),
    );
    // What the campus IT needs, beside the saved campus.
    await page.getByRole('heading', { name: 'For the campus IT' }).waitFor();
    const acs = `${baseUrl().replace(/\/$/, '')}/accounts/campus/saml/acs`;
    await page.getByText(acs, { exact: true }).waitFor();
    await expectAccessible(page);

    // The address answers our SP metadata, with the ACS address the SP uses.
    const answer = await page.request.get(metadataUrl);
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/samlmetadata+xml; charset=utf-8');
    const xml = await answer.text();
    expect(xml).toContain(`Location="${acs}"`);
    expect(xml).toContain(`entityID="${baseUrl().replace(/\/$/, '')}/accounts/campus/saml"`);

    // In French (the LANG cookie: this manager stored no language).
    await context.addCookies([{ name: 'LANG', value: 'fr-CA', url: baseUrl() }]);
    await page.goto('/manage/campus-sign-in');
    await page
      .getByRole('heading', { name: 'Paramètres de connexion par le campus', level: 1 })
      .waitFor();
    await page
      .getByRole('table', { name: 'Connexions par le campus' })
      .getByRole('row', { name: new RegExp(org.title) })
      .waitFor();
    await page
      .getByRole('link', { name: `Modifier la connexion par le campus de ${org.title}` })
      .click();
    await page
      .getByRole('heading', { name: `Modifier la connexion par le campus de ${org.title}` })
      .waitFor();
    await page.getByRole('heading', { name: 'Pour le service informatique du campus' }).waitFor();
    await page.getByLabel('Domaines de courriel').fill('pas un domaine');
    await page.getByRole('button', { name: 'Enregistrer la connexion par le campus' }).click();
    await page
      .getByText('« pas » n’est pas un domaine de courriel (par exemple campus.exemple.ca).')
      .waitFor();
    await waitForHydration(page);
    await expectAccessible(page);
    await context.close();
  });

  it('a student and a bookstore manager are refused', async () => {
    for (const like of ['student', 'bookstore'] as const) {
      const context = await newContext(browser);
      const page = await context.newPage();
      await logIn(page, await makeUser({ like, label: `campus-settings-${like}` }));
      const refused = await page.goto('/manage/campus-sign-in');
      expect(refused?.status()).toBe(403);
      await context.close();
    }
  });
});
