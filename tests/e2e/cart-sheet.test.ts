import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// spec 1 §4 and spec 2 §4 Product and cart sheets: the cart sheet opens loading, reloads the
// cart, closes together with the product sheet; removing an item refreshes the cart. Reached
// from the library: student@demo.test owns the demo classroom (product 5), whose items are
// other products, for sale (db/seed/demo.ts). Each test's student is made like them, with a
// cart of its own (fixtures.ts).
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Holds the next GET /api/cart response until `release` is called: the loading state shows. */
async function holdCart(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(
    '**/api/cart',
    async (route) => {
      await held;
      await route.continue();
    },
    { times: 1 },
  );
  return release;
}

const focusedText = (page: Page) =>
  page.evaluate(() => document.activeElement?.textContent?.trim() ?? null);

/** Whether focus is inside the dialog of this title (Radix titles are h2). */
const focusIsIn = (page: Page, title: string) =>
  page.evaluate(
    (name) =>
      document.activeElement?.closest('[role="dialog"]')?.querySelector('h2')?.textContent === name,
    title,
  );

/** Opens the library's classroom (the student owns it) in the product sheet; its title. */
async function openClassroom(page: Page, sheet: Locator): Promise<string> {
  const rows = page.getByRole('region', { name: 'Your materials' }).getByRole('listitem');
  const classroom = rows.filter({ has: page.getByText('CLASSROOM', { exact: true }) }).first();
  // The title's link (its Access Classroom is the row's other link, issue 14).
  const title = (await classroom.getByRole('link').first().innerText()).trim();
  await classroom.getByRole('button', { name: `Details: ${title}` }).click();
  await sheet.getByRole('heading', { level: 3, name: title }).waitFor();
  return title;
}

/**
 * Opens the library's classroom in the product sheet, then its first item that the student
 * can put in the cart (Add To Cart shows); answers that item's title.
 */
async function openItemForSale(page: Page, sheet: Locator): Promise<string> {
  const title = await openClassroom(page, sheet);
  const showItems = sheet.getByText(/^Show items \(\d+\)$/);
  const count = Number((await showItems.innerText()).match(/\d+/)![0]);
  for (let i = 0; i < count; i += 1) {
    await showItems.click();
    const itemButton = sheet.getByRole('button', { name: /^Details: / }).nth(i);
    const itemTitle = ((await itemButton.getAttribute('aria-label')) ?? '').replace(
      /^Details: /,
      '',
    );
    await itemButton.click();
    await sheet.getByRole('heading', { level: 3, name: itemTitle }).waitFor();
    if ((await sheet.getByRole('button', { name: 'Add To Cart' }).count()) > 0) return itemTitle;
    await sheet.getByRole('button', { name: `Back to ${title}` }).click();
    await sheet.getByRole('heading', { level: 3, name: title }).waitFor();
  }
  throw new Error('no item of the demo classroom is for sale to the student');
}

describe('cart sheet, over the product sheet', () => {
  it('Add To Cart becomes View Cart; the cart sheet loads, Remove refreshes it; Close closes both', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'cart-sheet' }));
    await page.goto('/library');
    await waitForHydration(page);
    const sheet = page.getByRole('dialog', { name: 'Product Details' });
    const itemTitle = await openItemForSale(page, sheet);
    const addButton = sheet.getByRole('button', { name: 'Add To Cart' });
    await expectAccessible(page);

    // A refused add: 'Unable to Add to Cart' with the server's reason; the button stays.
    await page.route('**/api/cart/items', (route) =>
      route.continue({
        postData: (route.request().postData() ?? '').replace(
          /"offeringId":\d+/,
          '"offeringId":2000000000',
        ),
      }),
    );
    await addButton.click();
    const refused = page.getByRole('dialog', { name: 'Unable to Add to Cart' });
    await refused
      .getByText('This offering is no longer available. Please choose another one.')
      .waitFor();
    await expectAccessible(page);
    await refused.getByRole('button', { name: 'Close' }).click();
    await refused.waitFor({ state: 'hidden' });
    await expect.poll(() => focusedText(page)).toBe('Add To Cart');
    await page.unroute('**/api/cart/items');

    // Added: the same button now reads View Cart, and the offering is locked.
    const options = sheet.getByRole('radio');
    const chosen = options.nth((await options.count()) - 1);
    await chosen.check();
    await addButton.click();
    const viewCart = sheet.getByRole('button', { name: 'View Cart' });
    await viewCart.waitFor();
    await expect.poll(() => focusedText(page)).toBe('View Cart');
    // spec 1 §4 Button-notify: 'Success', said in a polite live region.
    await sheet
      .getByRole('status')
      .filter({ hasText: /^Success$/ })
      .waitFor();
    expect(await chosen.isChecked()).toBe(true);
    expect(await chosen.isDisabled()).toBe(true);

    // View Cart opens the cart sheet on top: loading first, then the item.
    let release = await holdCart(page);
    await viewCart.click();
    const cart = page.getByRole('dialog', { name: 'Cart' });
    await cart.getByRole('status').getByText('Loading your cart…').waitFor();
    release();
    const line = cart.getByRole('listitem').filter({ hasText: itemTitle });
    await line.getByRole('link', { name: itemTitle }).waitFor();
    // Which offering it is, named as everywhere (issue 38: offeringNameWords).
    await line.getByText(/^(eBook|Print|Print on demand|eBook \+ Print) · .+$/).waitFor();
    await cart.getByText(/^Subtotal: \$\d/).waitFor();
    expect(await cart.getByRole('link', { name: 'Checkout' }).getAttribute('href')).toBe(
      '/checkout/',
    );
    expect(await cart.getByRole('link', { name: 'Go to the cart page' }).getAttribute('href')).toBe(
      '/cart/',
    );
    expect(await focusIsIn(page, 'Cart')).toBe(true);
    await expectAccessible(page);

    // Escape closes only the cart sheet: back on the product sheet, on View Cart.
    await page.keyboard.press('Escape');
    await cart.waitFor({ state: 'hidden' });
    expect(await sheet.isVisible()).toBe(true);
    await expect.poll(() => focusedText(page)).toBe('View Cart');

    // Removing the item reloads the cart (loading again), which is then empty.
    await viewCart.click();
    await line.getByRole('link', { name: itemTitle }).waitFor();
    release = await holdCart(page);
    await cart.getByRole('button', { name: `Remove ${itemTitle}` }).click();
    await cart.getByRole('status').getByText('Loading your cart…').waitFor();
    expect(await focusIsIn(page, 'Cart')).toBe(true);
    release();
    await cart.getByText('Your cart is empty.').waitFor();
    expect(await cart.getByRole('link', { name: 'Checkout' }).count()).toBe(0);
    await expectAccessible(page);

    // Back returns to the product sheet, which now offers Add To Cart again.
    await cart.getByRole('button', { name: 'Back to Product Details' }).click();
    await cart.waitFor({ state: 'hidden' });
    await addButton.waitFor();
    expect(await chosen.isDisabled()).toBe(false);

    // Closing from the cart sheet closes the product sheet too, and a reopened one starts over.
    await addButton.click();
    await viewCart.click();
    await line.getByRole('link', { name: itemTitle }).waitFor();
    await cart.getByRole('button', { name: 'Close' }).click();
    await cart.waitFor({ state: 'hidden' });
    await sheet.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('an item already in the cart reads View Cart; a failed load retries; a click beside the sheets closes both', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'cart-sheet' }));
    await page.goto('/library');
    await waitForHydration(page);
    const sheet = page.getByRole('dialog', { name: 'Product Details' });
    const itemTitle = await openItemForSale(page, sheet);
    await sheet.getByRole('button', { name: 'Add To Cart' }).click();
    await sheet.getByRole('button', { name: 'View Cart' }).waitFor();
    // Closed and opened again: the catalog item itself now says it is in the cart.
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await openClassroom(page, sheet);
    await sheet.getByText(/^Show items \(\d+\)$/).click();
    await sheet.getByRole('button', { name: `Details: ${itemTitle}` }).click();
    await sheet.getByRole('heading', { level: 3, name: itemTitle }).waitFor();
    // A cart that cannot be loaded says so, with the server's reason, and can be retried.
    await page.route(
      '**/api/cart',
      (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/vnd.api+json',
          body: JSON.stringify({ errors: [{ status: '500', detail: 'Server trouble.' }] }),
        }),
      { times: 1 },
    );
    await sheet.getByRole('button', { name: 'View Cart' }).click();
    const cart = page.getByRole('dialog', { name: 'Cart' });
    const alert = cart.getByRole('alert');
    await alert.getByText('Sorry, we could not load your cart.').waitFor();
    await alert.getByText('Server trouble.').waitFor();
    await alert.getByRole('button', { name: 'Try again' }).click();
    await cart.getByRole('link', { name: itemTitle }).waitFor();
    await page.mouse.click(5, 5);
    await cart.waitFor({ state: 'hidden' });
    await sheet.waitFor({ state: 'hidden' });
    await context.close();
  });
});
