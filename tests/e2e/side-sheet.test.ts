import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// spec 1 §2 Product side sheet, reached from the library: student@demo.test owns demo products
// 1–5, among them a classroom (product 5) with three items (db/seed/demo.ts). Each test reads
// as a student of its own made like them (fixtures.ts).
const student = () => makeUser({ like: 'student', label: 'side-sheet' });
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Holds catalog-item responses until `release` is called, so the loading state is seen. */
async function holdCatalogItems(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/api/catalog-items/**', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

const focusIsInDialog = (page: Page) =>
  page.evaluate(() => document.activeElement?.closest('[role="dialog"]') !== null);

describe('product side sheet, from the library', () => {
  it('opens loading, shows the product, opens an item and goes Back, closes with Escape', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/library');
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Your materials' }).waitFor();
    const rows = page.getByRole('region', { name: 'Your materials' }).getByRole('listitem');
    expect(await rows.count()).toBeGreaterThanOrEqual(5);
    await expectAccessible(page);

    const classroom = rows.filter({ has: page.getByText('CLASSROOM', { exact: true }) }).first();
    // The title's link (its Access Classroom is the row's other link, issue 14).
    const title = (await classroom.getByRole('link').first().innerText()).trim();
    const opener = classroom.getByRole('button', { name: `Details: ${title}` });
    const release = await holdCatalogItems(page);
    await opener.click();
    const sheet = page.getByRole('dialog', { name: 'Product Details' });
    await sheet.getByRole('status').getByText('Loading product details…').waitFor();
    expect(await sheet.getByRole('button', { name: /^Back/ }).count()).toBe(0);
    release();
    await sheet.getByRole('heading', { level: 3, name: title }).waitFor();
    await sheet.getByRole('heading', { name: 'How to access this classroom' }).waitFor();
    expect(await focusIsInDialog(page)).toBe(true);
    await expectAccessible(page);

    // An item of the classroom opens in the sheet; Back returns to the classroom.
    await sheet.getByText(/^Show items \(\d+\)$/).click();
    const itemButton = sheet.getByRole('button', { name: /^Details: / }).first();
    const itemTitle = ((await itemButton.getAttribute('aria-label')) ?? '').replace(
      /^Details: /,
      '',
    );
    await itemButton.click();
    await sheet.getByRole('heading', { level: 3, name: itemTitle }).waitFor();
    expect(await focusIsInDialog(page)).toBe(true);
    const back = sheet.getByRole('button', { name: `Back to ${title}` });
    await back.click();
    await sheet.getByRole('heading', { level: 3, name: title }).waitFor();
    expect(await sheet.getByRole('button', { name: /^Back/ }).count()).toBe(0);

    // Focus stays in the sheet while tabbing; Escape closes it and focus returns to the opener.
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      expect(await focusIsInDialog(page)).toBe(true);
    }
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-label')))
      .toBe(`Details: ${title}`);

    // Closing cleared the trail: opening again starts without Back; Close closes too.
    await opener.click();
    await sheet.getByRole('heading', { level: 3, name: title }).waitFor();
    expect(await sheet.getByRole('button', { name: /^Back/ }).count()).toBe(0);
    await sheet.getByRole('button', { name: 'Close' }).click();
    await sheet.waitFor({ state: 'hidden' });
    await context.close();
  });

  it('is about 28rem wide on a desktop and full width on a phone', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    for (const [width, expected] of [
      [1280, 448],
      [375, 375],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto('/library');
      await waitForHydration(page);
      await page
        .getByRole('button', { name: /^Details: / })
        .first()
        .click();
      const sheet = page.getByRole('dialog', { name: 'Product Details' });
      await sheet.getByRole('heading', { level: 3 }).waitFor();
      const box = await sheet.boundingBox();
      expect(Math.round(box!.width)).toBe(expected);
      expect(Math.round(box!.x + box!.width)).toBe(width);
      await page.keyboard.press('Escape');
      await sheet.waitFor({ state: 'hidden' });
    }
    await context.close();
  });

  it('shows a clear message when the item cannot be loaded', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/library');
    await waitForHydration(page);
    await page.route('**/api/catalog-items/**', (route) =>
      route.fulfill({
        status: 500,
        contentType: 'application/vnd.api+json',
        body: JSON.stringify({ errors: [{ status: '500', detail: 'Server trouble.' }] }),
      }),
    );
    await page
      .getByRole('button', { name: /^Details: / })
      .first()
      .click();
    const alert = page.getByRole('dialog', { name: 'Product Details' }).getByRole('alert');
    await alert.getByText('Sorry, we could not load the details of this product.').waitFor();
    await alert.getByText('Server trouble.').waitFor();
    await page.unroute('**/api/catalog-items/**');
    await alert.getByRole('button', { name: 'Try again' }).click();
    await page
      .getByRole('dialog', { name: 'Product Details' })
      .getByRole('heading', { level: 3 })
      .waitFor();
    await context.close();
  });

  it('reads French: title, buttons and the library, and passes axe with the sheet open', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    // Chosen as a person would, and stored on the account (DESIGN.md, Requests).
    await page.goto('/account/language?next=/library');
    await page.getByLabel('Français (Canada)').check();
    await Promise.all([
      page.waitForURL((url) => url.pathname.startsWith('/library')),
      page.getByRole('button', { name: 'Continue' }).click(),
    ]);
    await waitForHydration(page);
    await page.getByRole('heading', { name: 'Vos documents' }).waitFor();
    await page
      .getByRole('button', { name: /^Détails : / })
      .first()
      .click();
    const sheet = page.getByRole('dialog', { name: 'Détails du produit' });
    await sheet.getByRole('heading', { level: 3 }).waitFor();
    await sheet.getByRole('button', { name: 'Fermer' }).waitFor();
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'hidden' });
    await context.close();
  });
});
