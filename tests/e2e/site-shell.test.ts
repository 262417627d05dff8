import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
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

// Issue 13, the site shell: the maintenance banner stays dismissed from the first paint, every
// error page keeps the shell, and a browser that refuses cookies is told they are required.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const maintenance = (page: Page) => page.getByRole('region', { name: 'Maintenance notice' });

/** The shell every page has (spec 1 §1, §2): skip link, maintenance banner, navbar, footer. */
async function expectShell(page: Page) {
  await page.getByRole('link', { name: 'Skip to main content' }).waitFor({ state: 'attached' });
  await maintenance(page).getByRole('button', { name: 'Dismiss' }).waitFor();
  await page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: /home$/ })
    .waitFor();
  await page.getByRole('contentinfo').getByRole('link', { name: 'Site map' }).waitFor();
  await page.getByRole('main').waitFor();
}

describe('the maintenance banner (spec 1 §1: shows once, stays dismissed)', () => {
  it('once dismissed, a full page load never paints it again', async () => {
    const context = await newContext(browser);
    // Every frame the browser paints, and the moment the document is parsed, say whether the
    // banner is visible. Scripts arrive late, so the page paints before React has hydrated:
    // only what the server sent and the head's script decide what those paints show.
    await context.addInitScript(() => {
      const state = { paintedVisible: false, visibleAtDomContentLoaded: false, frames: 0 };
      (window as unknown as { bannerWatch: typeof state }).bannerWatch = state;
      const visible = () => {
        const banner = document.querySelector('section[aria-label="Maintenance notice"]');
        return !!banner && banner.checkVisibility();
      };
      const frame = () => {
        state.frames += 1;
        if (visible()) state.paintedVisible = true;
        if (state.frames < 600) requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
      document.addEventListener('DOMContentLoaded', () => {
        state.visibleAtDomContentLoaded = visible();
      });
    });
    await context.route('**/assets/*.js', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 400));
      await route.continue();
    });
    const page = await context.newPage();
    await page.goto('/');
    await waitForHydration(page);
    const watch = () =>
      page.evaluate(
        () =>
          (
            window as unknown as {
              bannerWatch: { paintedVisible: boolean; visibleAtDomContentLoaded: boolean };
            }
          ).bannerWatch,
      );
    // Not dismissed yet: shown from the first paint (the watch can see it).
    expect(await watch()).toMatchObject({ paintedVisible: true, visibleAtDomContentLoaded: true });
    await maintenance(page).getByRole('button', { name: 'Dismiss' }).click();
    await maintenance(page).waitFor({ state: 'detached' });
    for (const path of ['/', '/search?terms=biology']) {
      await page.goto(path);
      await page.getByRole('navigation', { name: 'Main' }).waitFor();
      await waitForHydration(page);
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
      expect(await watch(), path).toMatchObject({
        paintedVisible: false,
        visibleAtDomContentLoaded: false,
      });
      expect(await maintenance(page).count()).toBe(0);
    }
    await context.close();
  });
});

describe('error pages keep the shell (issue 13)', () => {
  it('a missing or foreign course section: 404 and 403 with skip link, banner, navbar and footer', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'bookstore', label: 'site-shell' }));
    const missing = await page.goto('/shelf/course-section/2000000000');
    expect(missing?.status()).toBe(404);
    await page.getByRole('heading', { name: "Sorry, that page doesn't exist." }).waitFor();
    await expectShell(page);
    // Section 1 is a demo section the bookstore manager is no member of.
    const foreign = await page.goto('/shelf/course-section/1');
    expect(foreign?.status()).toBe(403);
    await page.getByRole('heading', { name: "Sorry, you can't access this page." }).waitFor();
    await expectShell(page);
    await page.getByRole('button', { name: 'Jordan' }).waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('a refused form post answers its error inside the whole shell, the root data included', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'bookstore', label: 'site-shell' }));
    await page.goto('/shelf');
    await waitForHydration(page);
    // A post the course-section action refuses (a product id that is none): React Router
    // used to skip the root loader for an action error caught at the root, so the page had
    // no navbar, no banner and no account menu.
    const token: string = (await (await page.request.get('/api/account/login')).json()).data
      .attributes.csrfToken;
    const [response] = await Promise.all([
      page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith('/shelf/course-section/1'),
      ),
      page.evaluate((csrf) => {
        const form = document.createElement('form');
        form.method = 'post';
        form.action = '/shelf/course-section/1';
        for (const [name, value] of [
          ['csrfmiddlewaretoken', csrf],
          ['intent', 'acquire'],
          ['productId', 'not-a-number'],
        ]) {
          const input = document.createElement('input');
          input.type = 'hidden';
          input.name = name as string;
          input.value = value as string;
          form.append(input);
        }
        document.body.append(form);
        form.submit();
      }, token),
    ]);
    expect(response.status()).toBe(400);
    await page.waitForLoadState('domcontentloaded');
    await expectShell(page);
    await page.getByRole('button', { name: 'Jordan' }).waitFor();
    await context.close();
  });
});

/** A Chromium profile that blocks every site's cookies, as a person can in the settings. */
async function cookielessContext(): Promise<{
  context: BrowserContext;
  done: () => Promise<void>;
}> {
  const profile = mkdtempSync(path.join(tmpdir(), 'shelfmark-nocookies-'));
  mkdirSync(path.join(profile, 'Default'), { recursive: true });
  writeFileSync(
    path.join(profile, 'Default', 'Preferences'),
    JSON.stringify({ profile: { default_content_setting_values: { cookies: 2 } } }),
  );
  // The desktop browser: its profile's settings are what a person changes; the headless shell
  // the other journeys use reads no Preferences file.
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    baseURL: baseUrl(),
    locale: 'en-US',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run'],
  });
  return {
    context,
    done: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

describe('the cookie-permission screen (spec 1 §1)', () => {
  it('a browser that blocks cookies is told they are required, and the server knows it', async () => {
    const { context, done } = await cookielessContext();
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/');
    const screen = page.getByRole('region', { name: 'Cookies are required' });
    await screen.waitFor();
    await expectAccessible(page);
    // Asked twice, the login status still says the browser kept none of our cookies.
    for (let call = 0; call < 2; call += 1) {
      const login = await page.evaluate(() =>
        fetch('/api/account/login', { credentials: 'same-origin' }).then((r) => r.json()),
      );
      expect(login.data.attributes.navigationInfo.hasCookies).toBe(false);
    }
    await screen.getByRole('button', { name: 'Allow Cookies' }).click();
    await screen
      .getByText('Your browser still blocks cookies for this site.', { exact: false })
      .waitFor();
    await done();
  });

  it("'Allow Cookies' is disabled while the browser is asked, then thanks and 'Access Your Materials Now' refreshes", async () => {
    const context = await newContext(browser);
    // A page framed by another site, before and after the visitor grants storage access:
    // the browser's answer comes after a moment, as a real prompt's does.
    await context.addInitScript(() => {
      const granted = () => sessionStorage.getItem('granted') === '1';
      Object.defineProperty(Navigator.prototype, 'cookieEnabled', { get: granted });
      document.requestStorageAccess = () =>
        new Promise((resolve) => {
          setTimeout(() => {
            sessionStorage.setItem('granted', '1');
            resolve(undefined);
          }, 600);
        });
    });
    const page = await context.newPage();
    await page.goto('/search?terms=biology');
    const screen = page.getByRole('region', { name: 'Cookies are required' });
    await screen.waitFor();
    await screen
      .getByText(
        'Cookies are required to sign in, keep your cart and open your materials, and your browser is blocking them for this site.',
      )
      .waitFor();
    const allow = screen.getByRole('button', { name: 'Allow Cookies' });
    await allow.click();
    expect(await allow.getAttribute('aria-disabled')).toBe('true');
    await screen.getByText('Thank you! Cookies are allowed for this site.').waitFor();
    const access = screen.getByRole('button', { name: 'Access Your Materials Now' });
    await expect.poll(() => access.evaluate((el) => el === document.activeElement)).toBe(true);
    await expectAccessible(page);
    await Promise.all([page.waitForEvent('load'), access.click()]);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Search results for biology.' }).waitFor();
    expect(await screen.count()).toBe(0);
    await context.close();
  });

  it('a browser that keeps cookies never sees it, and the merger banner is off in the demo', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Best Sellers' }).waitFor();
    expect(await page.getByRole('region', { name: 'Cookies are required' }).count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Merger notice' }).count()).toBe(0);
    await context.close();
  });
});
