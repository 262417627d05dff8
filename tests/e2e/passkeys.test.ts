import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  logIn,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 20, passkeys: a new user adds a passkey on /account/security, signs out, and signs in
// with it from the login page (usernameless), through Chromium's virtual authenticator.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A platform authenticator that keeps discoverable credentials and verifies its user. */
async function withAuthenticator(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
}

/**
 * WebAuthn refuses an IP address as the relying party: these journeys use the app under its
 * name, localhost (the default site), as a person's browser would.
 */
function byName(): string {
  const url = new URL(baseUrl());
  url.hostname = 'localhost';
  return url.origin;
}

async function logOut(page: Page): Promise<void> {
  await page.goto('/accounts/logout/');
  await page.getByRole('link', { name: 'Log In' }).first().waitFor();
}

describe('issue 20: passkeys', () => {
  let context: BrowserContext;
  afterAll(async () => {
    await context?.close();
  });

  it('a new user adds a passkey, signs out, and signs in with it; then removes it with the password', async () => {
    const user = await makeUser({ label: 'passkey' });
    context = await newContext(browser, { baseURL: byName() });
    const page = await context.newPage();
    await withAuthenticator(page);
    await logIn(page, user);

    await page.goto('/account');
    await page.getByRole('link', { name: 'Security: passkeys and two-step verification' }).click();
    await page.waitForURL(/\/account\/security/);
    await waitForHydration(page);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Security' }).isVisible(),
    ).resolves.toBe(true);
    await page.getByText('You have no passkeys yet.').waitFor();
    await expectAccessible(page);

    // A name is asked first.
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Give the passkey a name, such as the device it is on.').waitFor();
    await page.getByLabel('Passkey name').fill('Work laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.getByText('Your passkey was added.').waitFor();
    const row = page.getByRole('row', { name: /Work laptop/ });
    await expect(row.getByRole('cell').nth(2).innerText()).resolves.toBe('Never');
    await expectAccessible(page);

    await logOut(page);
    await page.goto('/accounts/login/?next=/account/security');
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(/\/account\/security/);
    await waitForHydration(page);
    // Signed in as the user, with no password typed: the passkey now has a last use.
    await expect(
      page
        .getByRole('row', { name: /Work laptop/ })
        .getByRole('cell')
        .nth(2)
        .innerText(),
    ).resolves.not.toBe('Never');

    await page.getByLabel('Current password').fill('not the password');
    await page.getByRole('button', { name: 'Remove passkey' }).click();
    await page
      .getByText('The password is not correct (or, without a password, sign in again first).')
      .waitFor();
    await expectAccessible(page);
    await page.getByLabel('Current password').fill(user.password);
    await page.getByRole('button', { name: 'Remove passkey' }).click();
    await page.getByText('The passkey was removed.').waitFor();
    await page.getByText('You have no passkeys yet.').waitFor();

    // The device still holds it, but the store no longer knows it.
    await logOut(page);
    await page.goto('/accounts/login/');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByText('This passkey is not known here. Log in with your password.').waitFor();
    await expectAccessible(page);
  });

  it('fr-CA: the login page offers the passkey in French, and says so when the device has none', async () => {
    const french = await newContext(browser, { locale: 'fr-CA', baseURL: byName() });
    try {
      const page = await french.newPage();
      await withAuthenticator(page);
      await page.goto('/accounts/login/');
      await waitForHydration(page);
      // The authenticator holds no passkey for this site: the ceremony fails, and says so.
      await page.getByRole('button', { name: 'Connexion avec une clé d’accès' }).click();
      await page
        .getByText(
          'La connexion par clé d’accès a été annulée ou n’a pas fonctionné. Réessayez, ou connectez-vous avec votre mot de passe.',
        )
        .waitFor();
      await expectAccessible(page);
    } finally {
      await french.close();
    }
  });
});
