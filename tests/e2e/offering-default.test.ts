import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, waitForHydration } from './browser.ts';

// spec 1 §4 Offering selection default: the offering already in the cart comes first. The
// product page is shared by every visitor (page cache), so its loader chooses without the
// cart; the form asks the domain's rule (defaultOffering) again once it knows the cart
// (issue 13: "cart wins" had been written a second time in the browser). A visitor of their
// own, so no other journey's cart is involved. Book 13 has several options.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('the offering in the cart is the one selected', () => {
  it('a visitor adds another option than the default; on coming back it is selected, locked, with View Cart', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/book/13');
    await waitForHydration(page);
    const options = page.locator('input[name="offeringId"]');
    expect(await options.count()).toBeGreaterThan(1);
    // The page alone chooses the cheapest digital option; the visitor takes another one.
    const first = await options.first().isChecked();
    const other = first ? options.last() : options.first();
    const initial = first ? options.first() : options.last();
    expect(await initial.isChecked()).toBe(true);
    const offeringId = await other.getAttribute('value');
    await other.check();
    await page.getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('link', { name: 'View Cart' }).waitFor();

    await page.reload();
    await waitForHydration(page);
    await page.getByRole('link', { name: 'View Cart' }).waitFor();
    const chosen = page.locator(`input[name="offeringId"][value="${offeringId}"]`);
    expect(await chosen.isChecked()).toBe(true);
    expect(await initial.isChecked()).toBe(false);
    // spec 1 §4: the selection is locked once the item is in the cart.
    expect(await initial.isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Add To Cart' }).count()).toBe(0);
    await expectAccessible(page);
    await context.close();
  });
});
