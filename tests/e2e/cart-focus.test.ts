import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, waitForHydration } from './browser.ts';

// Issue 13: after Add To Cart the button was replaced by View Cart, the focus fell to the
// page's body and nothing was said. A visitor of their own (an anonymous cart of this browser
// context), so the journey shares no account with the others.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? null,
      text: element?.textContent?.trim() ?? null,
    };
  });

describe('Add To Cart with the keyboard', () => {
  it('keeps the focus on the control that replaces it and says so politely (spec 1 §4 Button-notify)', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/book/13');
    await waitForHydration(page);
    const add = page.getByRole('button', { name: 'Add To Cart' });
    await add.waitFor();
    await expect.poll(() => add.isEnabled()).toBe(true);
    await add.focus();
    await page.keyboard.press('Enter');
    const viewCart = page.getByRole('link', { name: 'View Cart' });
    await viewCart.waitFor();
    // spec 1 §4: 'Button-notify shows success or error text for 2000 ms' ('Success').
    await page
      .getByRole('status')
      .filter({ hasText: /^Success$/ })
      .waitFor();
    expect(await focused(page)).toEqual({ tag: 'a', text: 'View Cart' });
    await expectAccessible(page);
    // Enter on the focused View Cart goes on to the cart.
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname.startsWith('/cart'));
    await context.close();
  });

  it('says it in French on a French page', async () => {
    const context = await newContext(browser, { locale: 'fr-CA' });
    const page = await context.newPage();
    await page.goto('/book/13');
    await waitForHydration(page);
    const add = page.getByRole('button', { name: 'Ajouter au panier' });
    await expect.poll(() => add.isEnabled()).toBe(true);
    await add.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Voir le panier' }).waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /^Succès$/ })
      .waitFor();
    expect(await focused(page)).toEqual({ tag: 'a', text: 'Voir le panier' });
    await context.close();
  });
});
