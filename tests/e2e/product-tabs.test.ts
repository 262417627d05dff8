import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  baseUrl,
  expectAccessible,
  launchBrowser,
  newContext,
  waitForHydration,
} from './browser.ts';

// The product page's tabs (spec 1 §2: 'eBook Features' and 'ACCESSIBILITY', the latter for
// EPUB only) are our own since issue 13's JavaScript budget (web/components/tabs.tsx): they
// must still behave as the WAI-ARIA tabs pattern says, with the keyboard, and every panel
// must be in the page before any script runs. Product 1 is an EPUB (db/seed/demo.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('product tabs', () => {
  it('arrow keys, Home and End move between tabs and show their panels; Tab goes to the panel', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/product-detail/1');
    await waitForHydration(page);
    const features = page.getByRole('tab', { name: 'eBook Features' });
    const accessibility = page.getByRole('tab', { name: 'ACCESSIBILITY' });
    expect(await features.getAttribute('aria-selected')).toBe('true');
    expect(await accessibility.getAttribute('tabindex')).toBe('-1');
    await features.focus();
    await page.keyboard.press('ArrowRight');
    expect(await accessibility.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(await accessibility.getAttribute('aria-selected')).toBe('true');
    const panel = page.getByRole('tabpanel', { name: 'ACCESSIBILITY' });
    await panel.getByRole('heading', { name: 'Ways of Reading' }).waitFor();
    expect(await page.getByRole('tabpanel', { name: 'eBook Features' }).count()).toBe(0);
    await page.keyboard.press('ArrowRight');
    expect(await features.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('End');
    expect(await accessibility.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Home');
    expect(await features.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Tab');
    expect(
      await page
        .getByRole('tabpanel', { name: 'eBook Features' })
        .evaluate((el) => el === document.activeElement),
    ).toBe(true);
    await expectAccessible(page);
    await context.close();
  });

  it('without scripts every panel is in the page, the hidden one hidden', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(new URL('/product-detail/1', baseUrl()).href);
    expect(await page.locator('[role="tabpanel"]').count()).toBe(2);
    expect(await page.locator('[role="tabpanel"][hidden]').count()).toBe(1);
    await context.close();
  });
});
