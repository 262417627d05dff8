import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DevCampusIdp, startDevCampusIdp } from '#server/dev-campus-idp.ts';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  newContext,
  waitForHydration,
} from './browser.ts';
import { makeCampus } from './fixtures.ts';

// Issue 20, tried as a campus student would: they type their campus e-mail on the login page,
// are offered 'Sign in with your campus', sign in at their campus's OpenID provider (oidc-provider,
// run by this journey on 127.0.0.1) and land on My Shelf with their sections.

const CLIENT_ID = 'shelfmark-journey';
const PASSWORD = 'journey-campus-password';
let browser: Browser;
let idp: DevCampusIdp;
let campus: Awaited<ReturnType<typeof makeCampus>>;

beforeAll(async () => {
  browser = await launchBrowser();
  // The provider learns of the student once the campus has made them (below).
  const people: {
    sub: string;
    email: string;
    givenName: string;
    familyName: string;
    studentId: string;
  }[] = [];
  idp = await startDevCampusIdp({
    port: 0,
    appOrigins: [baseUrl().replace(/\/$/, '')],
    clientId: CLIENT_ID,
    password: PASSWORD,
    people,
    title: 'Journey campus',
  });
  campus = await makeCampus({ issuer: idp.issuer, clientId: CLIENT_ID });
  people.push({
    sub: `journey-${campus.student.id}`,
    email: campus.student.email,
    givenName: campus.student.firstName,
    familyName: campus.student.lastName,
    studentId: String(campus.student.id),
  });
});
afterAll(async () => {
  await browser?.close();
  await idp?.close();
});

describe('Campus sign-in (issue 20)', () => {
  it('a student types a campus e-mail, signs in at the campus and lands on My Shelf', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/accounts/login/?next=/shelf');
    await waitForHydration(page);
    await expectAccessible(page);
    await page.getByLabel('E-mail').fill(campus.student.email);
    await page.getByText(`${campus.title} signs you in with your campus account.`).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Sign in with your campus' }).click();

    // The campus's own page (the provider's), the address already filled in.
    await page.getByRole('heading', { name: 'Journey campus' }).waitFor();
    expect(await page.getByLabel('Campus e-mail').inputValue()).toBe(campus.student.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await page.waitForURL(
      (url) => url.origin === new URL(baseUrl()).origin && url.pathname === '/shelf',
    );
    await page.getByRole('heading', { name: 'My Shelf', level: 1 }).waitFor();
    expect(await page.locator('.course-card__title').allInnerTexts()).toContain('BIO 101');
    await expectAccessible(page);
    await context.close();
  });

  it('in French: the offer and a refused answer speak French', async () => {
    const context = await newContext(browser, { locale: 'fr-CA' });
    const page = await context.newPage();
    await page.goto('/accounts/login/');
    await waitForHydration(page);
    await page.getByLabel('Courriel').fill(campus.student.email);
    await page.getByText(`${campus.title} vous connecte avec votre compte du campus.`).waitFor();
    await page.getByRole('link', { name: 'Se connecter par votre campus' }).waitFor();
    // The page's hint: no password, and Log In goes to the campus's own sign-in.
    await page.getByRole('button', { name: 'Se connecter', exact: true }).click();
    await page.getByRole('heading', { name: 'Journey campus' }).waitFor();
    // Asked in French (ui_locales), the campus's page answers in French.
    expect(await page.getByLabel('Courriel du campus').inputValue()).toBe(campus.student.email);
    expect(await page.locator('html').getAttribute('lang')).toBe('fr-CA');
    // An answer to a sign-in we never started: a clear 400, in French.
    const response = await page.goto('/accounts/campus/oidc/callback?code=x&state=forged');
    expect(response?.status()).toBe(400);
    await page
      .getByText(
        'Cette connexion par le campus a expiré ou a déjà servi. Recommencez à partir de la page de connexion.',
      )
      .waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('bad input gets a clear 4xx in the language asked for, never a 500', async () => {
    const base = baseUrl().replace(/\/$/, '');
    const ask = async (path: string, init: RequestInit = {}, locale = 'en') => {
      const response = await fetch(`${base}${path}`, {
        ...init,
        redirect: 'manual',
        headers: { 'Accept-Language': locale, ...(init.headers as Record<string, string>) },
      });
      return { status: response.status, text: await response.text() };
    };
    const post = (body: string, locale = 'en') =>
      ask(
        '/accounts/campus/saml/acs/',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body,
        },
        locale,
      );
    const cases: [Promise<{ status: number; text: string }>, number, string][] = [
      [ask('/accounts/campus/start/?campus=abc'), 400, ''],
      [ask('/accounts/campus/start/?campus=999999999'), 404, 'This campus does not sign in here.'],
      [
        ask('/accounts/campus/start/?email=someone%40gmail.com'),
        400,
        'No campus signs in with this e-mail address.',
      ],
      [ask('/accounts/campus/oidc/callback/?state=%00%ff&code=1'), 400, ''],
      [
        ask('/accounts/campus/oidc/callback/?state=forged&code=1', {}, 'fr-CA'),
        400,
        'Cette connexion par le campus a expiré ou a déjà servi.',
      ],
      [
        post('SAMLResponse=%3Cnot-base64%3E'),
        400,
        'The answer from your campus could not be read.',
      ],
      [
        post(`SAMLResponse=${encodeURIComponent(Buffer.from('<Response/>').toString('base64'))}`),
        400,
        'We did not ask your campus for this sign-in, or it has expired.',
      ],
      [post(`SAMLResponse=${'A'.repeat(600_000)}`, 'fr-CA'), 400, ''],
      [ask('/accounts/campus/finish/?handle=nothing'), 400, 'This campus sign-in has expired'],
    ];
    for (const [index, [answer, status, text]] of cases.entries()) {
      const { status: got, text: body } = await answer;
      expect(got, `case ${index}`).toBe(status);
      if (text) expect(body).toContain(text.replace(/'/g, '&#x27;'));
    }
  });
});
