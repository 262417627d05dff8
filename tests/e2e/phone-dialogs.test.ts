import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseUrl, expectAccessible, launchBrowser, logIn, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 38, "Phone": at 390 × 844 the opt-out dialog was 907 px tall, fixed and unscrollable,
// its title cut off and its second button off the screen. Every dialog now fits the screen and
// scrolls inside; this journey opens each one at 320 × 568 and 390 × 844 and reaches every
// button. The site's banners keep to a line or two, so a page's own content starts on the
// first screen. Each journey makes its own student.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONES = [
  { width: 320, height: 568 },
  { width: 390, height: 844 },
] as const;

async function phone(size: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    locale: 'en-US',
    viewport: size,
    isMobile: true,
    hasTouch: true,
  });
  return context.newPage();
}

/** Whether a box lies within the screen (half a pixel of rounding allowed). */
function onScreen(
  box: { x: number; y: number; width: number; height: number } | null,
  size: { width: number; height: number },
): boolean {
  if (!box) return false;
  return (
    box.x >= -0.5 &&
    box.y >= -0.5 &&
    box.x + box.width <= size.width + 0.5 &&
    box.y + box.height <= size.height + 0.5
  );
}

/**
 * The dialog fits the screen, its title shows, and every button in it can be brought on the
 * screen by scrolling the dialog (as a thumb would), then pressed.
 */
async function expectWithinReach(page: Page, dialog: Locator): Promise<void> {
  const size = page.viewportSize()!;
  await dialog.waitFor();
  const name = await dialog.evaluate((el) => el.getAttribute('aria-labelledby') ?? '');
  expect(onScreen(await dialog.boundingBox(), size), `dialog ${name} fits the screen`).toBe(true);
  const title = dialog.locator('.dialog__title, h2').first();
  await title.scrollIntoViewIfNeeded();
  expect(onScreen(await title.boundingBox(), size), 'its title shows').toBe(true);
  const buttons = dialog.getByRole('button');
  const count = await buttons.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) {
    const button = buttons.nth(i);
    if (!(await button.isVisible())) continue;
    await button.scrollIntoViewIfNeeded();
    const label = (await button.textContent())?.trim();
    expect(onScreen(await button.boundingBox(), size), `button ${label} within reach`).toBe(true);
  }
  await dialog.evaluate((el) => el.scrollTo(0, 0));
}

async function openBio(page: Page): Promise<void> {
  await page.goto('/shelf');
  await page.locator('.course-card__link', { hasText: 'BIO 101' }).click();
  await page.waitForURL(/\/shelf\/course-section\/\d+$/);
  await page.getByRole('heading', { name: /^BIO 101: Section 001$/, level: 1 }).waitFor();
  await waitForHydration(page);
}

describe('every dialog within reach on a phone (issue 38)', () => {
  for (const size of PHONES) {
    it(`${size.width} × ${size.height}: opting out and back in, step by step`, async () => {
      const page = await phone(size);
      await logIn(page, await makeUser({ like: 'student', label: `phone-opting-${size.width}` }));
      await openBio(page);
      const banner = page.getByRole('region', { name: 'Inclusive access' });
      await banner.getByRole('button', { name: 'Opt Out' }).click();
      let dialog = page.getByRole('dialog', { name: 'Are you sure you want to opt out?' });
      await expectWithinReach(page, dialog);
      await expectAccessible(page);
      await dialog.getByRole('button', { name: 'Continue to Opt Out' }).click();
      dialog = page.getByRole('dialog', { name: 'Confirm that you want to opt out' });
      await expectWithinReach(page, dialog);
      await dialog.getByLabel('Type OPTOUT to confirm').fill('OPTOUT');
      await dialog.getByRole('button', { name: 'Opt Out' }).click();
      dialog = page.getByRole('dialog', { name: 'Why are you opting out?' });
      await dialog.getByRole('radio', { name: 'needed a print copy' }).check();
      await expectWithinReach(page, dialog);
      await dialog.getByRole('button', { name: 'Submit' }).click();
      dialog = page.getByRole('dialog', { name: 'You are now opted out' });
      await expectWithinReach(page, dialog);
      await dialog.getByRole('button', { name: 'Close' }).click();
      await banner.getByRole('button', { name: 'Opt In' }).click();
      dialog = page.getByRole('dialog', { name: "Let's get you opted in!" });
      await expectWithinReach(page, dialog);
      await dialog.getByRole('button', { name: 'Opt In' }).click();
      await banner.getByText(/^You are currently opted in\./).waitFor();

      // Have an access code? opens the redeem dialog.
      await page.getByRole('button', { name: 'Have an access code?' }).click();
      dialog = page.getByRole('dialog');
      await expectWithinReach(page, dialog);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.context().close();
    });

    it(`${size.width} × ${size.height}: the language chooser and the accessibility metadata`, async () => {
      const page = await phone(size);
      await page.goto('/product-detail/1');
      await waitForHydration(page);
      await page
        .getByRole('link', { name: /^Language: / })
        .first()
        .click();
      let dialog = page.getByRole('dialog', { name: 'Choose your language' });
      await expectWithinReach(page, dialog);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('tab', { name: 'ACCESSIBILITY' }).click();
      await page.getByRole('button', { name: /^(See all|Show all)/ }).click();
      dialog = page.getByRole('dialog', { name: 'Accessibility Metadata' });
      await expectWithinReach(page, dialog);
      await expectAccessible(page);
      await page.context().close();
    });

    it(`${size.width} × ${size.height}: the test-mode and maintenance banners keep to a line or two`, async () => {
      const page = await phone(size);
      await page.goto('/product-detail/1');
      const testMode = page.getByRole('note').filter({ hasText: 'Test mode:' });
      const maintenance = page.getByRole('region', { name: 'Maintenance notice' });
      const heights = {
        testMode: (await testMode.boundingBox())!.height,
        maintenance: (await maintenance.boundingBox())!.height,
      };
      // One line for the test mode (its card is said at checkout), two or three for the notice.
      expect(heights.testMode).toBeLessThanOrEqual(32);
      expect(heights.testMode + heights.maintenance).toBeLessThanOrEqual(
        size.width < 360 ? 100 : 80,
      );
      // The notice can be put away, and stays away.
      await waitForHydration(page);
      await maintenance.getByRole('button', { name: 'Dismiss' }).click();
      await maintenance.waitFor({ state: 'detached' });
      await page.reload();
      expect(await maintenance.count()).toBe(0);
      await page.context().close();
    });
  }
});
