import { existsSync } from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { generate } from 'otplib';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect, inject } from 'vitest';
import { DEMO_TOTP_SECRET } from '#db/seed/second-factor.ts';

export const DEMO_PASSWORD = 'shelfmark-demo';

export function baseUrl(): string {
  return inject('baseUrl');
}

/**
 * The Chromium the journeys drive: Debian's headless shell when it is installed (.ci/run
 * installs it), else Debian's `chromium`; CHROMIUM_PATH for another. The shell is the same
 * engine (Blink, V8, the network stack, the same 156 release) without the desktop browser's
 * UI layer, and the journeys take a third less time in it (issue 36, decision 032): the same
 * four files took 110 s beside 158 and 180 s in the full browser.
 */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium';
}
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What Radix's dialogs log when one has no title or description (a screen reader hears none). */
const DIALOG_WARNING = /DialogContent|DialogTitle|aria-describedby/;

/**
 * A browser context for a journey. Every dialog the journey opens must log no warning or error
 * (issue 13: dialogs without a description warned in the console): the context records them,
 * and closing it fails the journey when there was one.
 */
export async function newContext(
  browser: Browser,
  options: { locale?: string; baseURL?: string } = {},
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: options.baseURL ?? baseUrl(),
    locale: options.locale ?? 'en-US',
  });
  const dialogWarnings: string[] = [];
  context.on('console', (message) => {
    const kind = message.type();
    if ((kind === 'warning' || kind === 'error') && DIALOG_WARNING.test(message.text())) {
      dialogWarnings.push(`${kind}: ${message.text()} (${message.page()?.url() ?? ''})`);
    }
  });
  const close = context.close.bind(context);
  context.close = async (closeOptions) => {
    await close(closeOptions);
    expect(dialogWarnings, 'dialogs logged warnings').toEqual([]);
  };
  return context;
}

/**
 * Logs in through the login page, as a person would: a user made for the journey
 * (fixtures.ts), or a demo account by its e-mail.
 */
export async function logIn(
  page: Page,
  who: string | { email: string; password: string },
  password = DEMO_PASSWORD,
): Promise<void> {
  const account = typeof who === 'string' ? { email: who, password } : who;
  await page.goto('/accounts/login/');
  await page.getByLabel('E-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log In' }).click();
  await page.waitForURL(
    (url) =>
      !url.pathname.startsWith('/accounts/login') ||
      url.pathname.startsWith('/accounts/login/verify'),
  );
  // Managers and bookstore managers have two-step verification with the demo key (issue 20).
  if (new URL(page.url()).pathname.startsWith('/accounts/login/verify')) {
    await page.getByLabel('Verification code').fill(await demoTotpCode(account.email));
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/accounts/login'));
  }
  await waitForHydration(page);
}

const lastDemoStep = new Map<string, number>();

/**
 * A code of the demo key not yet used by this account in this process: a code is accepted
 * once, one step early or late, so a second log-in within 30 s takes the next step's code
 * (and a third waits for the clock).
 */
export async function demoTotpCode(email: string): Promise<string> {
  const now = () => Math.floor(Date.now() / 1000);
  const current = Math.floor(now() / 30);
  const step = Math.max(current, (lastDemoStep.get(email) ?? 0) + 1);
  if (step > current + 1) {
    await new Promise((resolve) => setTimeout(resolve, ((step - 1) * 30 - now() + 1) * 1000));
  }
  lastDemoStep.set(email, step);
  return generate({ secret: DEMO_TOTP_SECRET, epoch: step * 30 });
}

/** Controls such as menus and dialogs work once React has hydrated the page. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached' });
}

/** No serious or critical axe-core violation on the page as it is now. */
export async function expectAccessible(page: Page): Promise<void> {
  // Only violations are wanted in full (axe still runs every rule, but keeps one node of each
  // passing one). A page without frames is checked where it is: AxeBuilder's frame-safe way
  // opens a blank page to gather the frames' results, twice the time on one frame (search:
  // 3.4-4.0 s against 1.5-1.6, home 1.2-1.5 s against 0.5-0.6, the same violations; issue 36).
  const axe = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  if (page.frames().length === 1) axe.setLegacyMode(true);
  const results = await axe.analyze();
  const bad = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(
    bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`),
  ).toEqual([]);
}

/** Opens the navbar's user dropdown as a person would: click, and click again if it did not open. */
export async function openUserMenu(page: Page): Promise<void> {
  const trigger = page.getByRole('banner').locator('button[aria-haspopup="menu"]');
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await trigger.click();
    try {
      await page.getByRole('menu').waitFor({ timeout: 3_000 });
      return;
    } catch {
      // A navigation re-rendered the navbar under the click; try again.
    }
  }
  await page.getByRole('menu').waitFor();
}

/**
 * A staff tool as someone it is not for (spec 1 §2 user menu): their menu has no such item, and
 * its page answers 403 to them.
 */
export async function expectToolRefused(page: Page, item: string, path: string): Promise<void> {
  await openUserMenu(page);
  expect(await page.getByRole('menu').getByRole('menuitem', { name: item }).count()).toBe(0);
  await page.keyboard.press('Escape');
  const refused = await page.goto(path);
  expect(refused?.status(), `${path} refused`).toBe(403);
}

/**
 * Empties the logged-in shopper's cart through the cart API (spec 2 §7 Cart: delete), so a
 * journey starts from an empty cart whatever ran before it on the shared demo database.
 */
export async function emptyCart(page: Page): Promise<void> {
  const login = await (await page.request.get('/api/account/login')).json();
  const csrfToken: string = login.data.attributes.csrfToken;
  const cart = await (await page.request.get('/api/cart')).json();
  for (const item of cart.data as { id: string }[]) {
    const response = await page.request.delete(`/api/cart/items/${item.id}`, {
      headers: { 'X-CSRFToken': csrfToken },
    });
    expect(response.status()).toBe(204);
  }
}

/**
 * A log-in made with fetch that the server sent on to the second step (a demo manager, issue
 * 20): the demo key's code, posted as the form posts it. The answer sets the session.
 */
export async function postDemoCode(input: {
  base: string;
  cookie: string;
  csrfToken: string;
  email: string;
}): Promise<Response> {
  return fetch(`${input.base}/accounts/login/verify/`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: input.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      csrfmiddlewaretoken: input.csrfToken,
      code: await demoTotpCode(input.email),
    }).toString(),
  });
}

/**
 * Chooses a language on /account/language (spec 2 §7), as a reader does, and comes back to
 * `next` (a path, with its query if any), hydrated.
 */
export async function chooseLanguage(
  page: Page,
  language: 'Français (Canada)' | 'English',
  next: string,
): Promise<void> {
  const pathname = new URL(next, 'http://127.0.0.1').pathname;
  await page.goto(`/account/language?next=${encodeURIComponent(next)}`);
  await page.getByLabel(language).check();
  await Promise.all([
    page.waitForURL((url) => url.pathname === pathname),
    page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
  ]);
  await waitForHydration(page);
}
