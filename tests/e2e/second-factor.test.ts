import jsQR from 'jsqr';
import { generate } from 'otplib';
import type { Browser, Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 20, two-step verification: a manager cannot sign in on the password alone; one without
// an authenticator enrols before any session, then signs in with a code computed here, and
// with a recovery code once (its second use refused).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const codeFor = (secret: string, step: number) => generate({ secret, epoch: step * 30 });
const stepNow = () => Math.floor(Date.now() / 1000 / 30);

async function password(page: Page, email: string, secret: string, next = '/') {
  await page.goto(`/accounts/login/?next=${encodeURIComponent(next)}`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(secret);
  await page.getByRole('button', { name: 'Log In' }).click();
}

async function logOut(page: Page): Promise<void> {
  await page.goto('/accounts/logout/');
  await page.getByRole('link', { name: 'Log In' }).first().waitFor();
}

describe('issue 20: two-step verification', () => {
  it('a manager enrols at first sign-in, then needs a code, or a recovery code once', async () => {
    const manager = await makeUser({ like: 'manager', label: 'totp', secondFactor: false });
    const context = await newContext(browser);
    try {
      const page = await context.newPage();
      await password(page, manager.email, manager.password, '/account');
      await page.waitForURL(/\/accounts\/login\/enrol/);
      await page.getByRole('heading', { name: 'Set up two-step verification' }).waitFor();
      await page
        .getByText(
          'Your role requires two-step verification. Set up an authenticator app to finish signing in.',
        )
        .waitFor();
      await expectAccessible(page);

      // No session yet: My Account still asks to log in.
      await page.goto('/account');
      await page.waitForURL(/\/accounts\/login\/\?next=%2Faccount/);

      await page.goto('/accounts/login/enrol/');
      await waitForHydration(page);
      const key = (await page.locator('dd code').first().innerText()).replace(/\s/g, '');
      expect(key).toMatch(/^[A-Z2-7]{16,}$/);
      // The QR code is what a phone scans: read it back, it is the address shown under it.
      const shown = await page.locator('dd code').nth(1).innerText();
      expect(await scannedQrCode(page)).toBe(shown);
      expect(shown).toContain(`secret=${key}`);
      await page.getByLabel('Code from the app').fill('123');
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page
        .getByText('This code is not correct. Check the key in your app and try again.')
        .waitFor();
      const enrolStep = stepNow();
      await page.getByLabel('Code from the app').fill(await codeFor(key, enrolStep));
      await page.getByRole('button', { name: 'Confirm' }).click();
      await page.getByRole('heading', { name: 'Two-step verification is on' }).waitFor();
      const codes = await page
        .getByRole('listitem')
        .filter({ hasText: /^[a-z2-9]{5}-[a-z2-9]{5}$/ })
        .allInnerTexts();
      expect(codes).toHaveLength(10);
      await expectAccessible(page);
      await page.getByRole('link', { name: 'Continue' }).click();
      await page.waitForURL(/\/account$/);
      await page.getByRole('heading', { name: 'My Account' }).waitFor();

      // Next sign-in: the password leads to the code, not to a session.
      await logOut(page);
      await password(page, manager.email, manager.password, '/account');
      await page.waitForURL(/\/accounts\/login\/verify/);
      await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
      await expectAccessible(page);
      await page.getByLabel('Verification code').fill('000000');
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.getByText('This code is not correct.').waitFor();
      await expectAccessible(page);
      // The code of the step after the enrolment's (one step early is accepted).
      await page.getByLabel('Verification code').fill(await codeFor(key, enrolStep + 1));
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/account$/);
      await page.getByRole('heading', { name: 'My Account' }).waitFor();

      // A recovery code signs in once...
      await logOut(page);
      await password(page, manager.email, manager.password, '/account/security');
      await page.waitForURL(/\/accounts\/login\/verify/);
      await page.getByLabel('Verification code').fill(codes[0]!.toUpperCase());
      await page.getByRole('button', { name: 'Verify' }).click();
      await page.waitForURL(/\/account\/security/);
      await page.getByText('9 recovery codes left.').waitFor();
      await page.getByText('Your role requires two-step verification.').waitFor();
      await expect(
        page.getByRole('button', { name: 'Turn off two-step verification' }).count(),
      ).resolves.toBe(0);
      await expectAccessible(page);

      // ...and not twice.
      await logOut(page);
      await password(page, manager.email, manager.password);
      await page.waitForURL(/\/accounts\/login\/verify/);
      await page.getByLabel('Verification code').fill(codes[0]!);
      await page.getByRole('button', { name: 'Verify' }).click();
      await page
        .getByText(
          'This recovery code was already used. Each one works once: use another of your codes.',
        )
        .waitFor();
      expect(new URL(page.url()).pathname).toMatch(/^\/accounts\/login\/verify/);
    } finally {
      await context.close();
    }
  });

  it('fr-CA: the second step speaks French', async () => {
    const manager = await makeUser({ like: 'bookstore', label: 'totp-fr' });
    const context = await newContext(browser, { locale: 'fr-CA' });
    try {
      const page = await context.newPage();
      await page.goto('/accounts/login/');
      await page.getByLabel('Courriel').fill(manager.email);
      await page.getByLabel('Mot de passe').fill(manager.password);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      await page.waitForURL(/\/accounts\/login\/verify/);
      await page.getByRole('heading', { name: 'Vérification en deux étapes' }).waitFor();
      await page.getByLabel('Code de vérification').fill('12');
      await page.getByRole('button', { name: 'Vérifier' }).click();
      await page.getByText('Ce code est incorrect.').waitFor();
      await expectAccessible(page);
    } finally {
      await context.close();
    }
  });
});

describe('issue 20: two-step verification is optional for a student', () => {
  it('fr-CA: a student turns it on from Sécurité, sees the recovery codes once, and turns it off', async () => {
    const student = await makeUser({ label: 'totp-student' });
    const context = await newContext(browser, { locale: 'fr-CA' });
    try {
      const page = await context.newPage();
      await page.goto('/accounts/login/?next=/account/security');
      await page.getByLabel('Courriel').fill(student.email);
      await page.getByLabel('Mot de passe').fill(student.password);
      await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
      // No authenticator, no role that needs one: straight in.
      await page.waitForURL(/\/account\/security/);
      await waitForHydration(page);
      await page.getByText('La vérification en deux étapes est désactivée.').waitFor();
      await page.getByRole('button', { name: 'Configurer la vérification en deux étapes' }).click();
      await page.getByLabel('Code de l’application').waitFor();
      await expectAccessible(page);
      const key = (await page.locator('dd code').first().innerText()).replace(/\s/g, '');
      await page.getByLabel('Code de l’application').fill(await codeFor(key, stepNow()));
      await page.getByRole('button', { name: 'Confirmer' }).click();
      await page.getByRole('heading', { name: 'Vos codes de récupération' }).waitFor();
      await page.getByText('10 codes de récupération restants.').waitFor();
      await expectAccessible(page);
      // Shown once: a reload has them no more.
      await page.reload();
      await page.getByText('10 codes de récupération restants.').waitFor();
      await expect(
        page.getByRole('heading', { name: 'Vos codes de récupération' }).count(),
      ).resolves.toBe(0);

      await page.getByLabel('Mot de passe actuel').fill(student.password);
      await page.getByRole('button', { name: 'Désactiver la vérification en deux étapes' }).click();
      await page.getByText('La vérification en deux étapes est désactivée.').first().waitFor();
    } finally {
      await context.close();
    }
  });
});

describe('issue 20: bad input to the passkey and code forms is a clear 4xx', () => {
  it('garbage assertions, unknown intents and purposes, and codes without a sign-in are refused', async () => {
    const base = baseUrl();
    const jar = new Map<string, string>();
    const keep = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const at = pair.indexOf('=');
        jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
      }
    };
    const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const status = await fetch(`${base}/api/account/login`);
    keep(status);
    const token = ((await status.json()) as { data: { attributes: { csrfToken: string } } }).data
      .attributes.csrfToken;
    const post = async (path: string, fields: Record<string, string>) => {
      const response = await fetch(`${base}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: {
          cookie: cookie(),
          'content-type': 'application/x-www-form-urlencoded',
          'accept-language': 'en',
        },
        body: new URLSearchParams({ csrfmiddlewaretoken: token, ...fields }).toString(),
      });
      return { status: response.status, text: await response.text() };
    };

    const garbage = await post('/accounts/login/', { intent: 'passkey', assertion: '{"id":1' });
    expect(garbage.status).toBe(400);
    expect(garbage.text).toContain('This passkey is not known here. Log in with your password.');
    const forged = await post('/accounts/login/', {
      intent: 'passkey',
      assertion: JSON.stringify({
        id: 'AAAA',
        rawId: 'AAAA',
        type: 'public-key',
        response: { clientDataJSON: 'e30', authenticatorData: 'AAAA', signature: 'AAAA' },
      }),
    });
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('The passkey sign-in took too long. Please try again.');
    expect((await post('/accounts/passkey/options', { purpose: 'steal' })).status).toBe(400);
    expect((await post('/accounts/passkey/options', { purpose: 'register' })).status).toBe(403);
    const code = await post('/accounts/login/verify/', { code: '123456' });
    expect(code.status).toBe(400);
    expect(code.text).toContain('This sign-in has expired.');
    const enrol = await post('/accounts/login/enrol/', { code: '123456' });
    expect(enrol.status).toBe(400);
  });
});

/** What a phone's camera reads from the QR code on the page (a screenshot, decoded). */
async function scannedQrCode(page: Page): Promise<string | undefined> {
  const image = page.getByRole('img', { name: 'QR code to scan with your authenticator app' });
  const png = PNG.sync.read(await image.screenshot());
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data;
}
