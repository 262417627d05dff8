import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeRedeemCode, makeUser } from './fixtures.ts';

// Issue 6, Codes, as a person would: a code like the demo code through the shelf's dialog,
// and the standalone form's refusals, ending in the cool-down. Each test has its own user
// and code (fixtures.ts): a code is redeemed once, wrong codes count per account.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

describe('redeeming codes', () => {
  it('a code redeemed from My Shelf: validating, then Congratulations, then the shelf', async () => {
    const code = await makeRedeemCode();
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'redeem' }));
    await page.goto('/shelf');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Redeem Shelfmark Access Code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redeem Your Access Code' });
    await dialog.getByLabel('Access code').fill('NOT-A-REAL-CODE');
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    await dialog
      .getByText('This code is not valid, has already been used or has expired.')
      .waitFor();
    // On failure the code is cleared.
    await dialog.getByLabel('Access code').and(page.locator('[value=""]')).waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('Access code').fill(`  ${code} `);
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    const done = page.getByRole('dialog', { name: 'Congratulations!' });
    await done.getByText('You’ve successfully redeemed an access code.').waitFor();
    await done.getByRole('button', { name: 'Return To My Shelf' }).click();
    await page.waitForLoadState('load');
    await page.getByRole('heading', { name: 'My Shelf', level: 1 }).waitFor();
    await context.close();
  });

  it('the dialog can be left before redeeming, by Cancel or Escape, with the focus back on its button', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'redeem' }));
    await page.goto('/shelf');
    await waitForHydration(page);
    const opener = page.getByRole('button', { name: 'Redeem Shelfmark Access Code' });
    const dialog = page.getByRole('dialog', { name: 'Redeem Your Access Code' });
    const focused = (locator: typeof opener) =>
      locator.evaluate((element) => element === document.activeElement);
    // Keyboard only: open, Tab to the visible Cancel, press it.
    await opener.focus();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    const cancel = dialog.getByRole('button', { name: 'Cancel', exact: true });
    await cancel.waitFor();
    await expectAccessible(page);
    for (let i = 0; i < 5 && !(await focused(cancel)); i += 1) await page.keyboard.press('Tab');
    expect(await focused(cancel)).toBe(true);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(opener)).toBe(true);
    // Escape closes it too, and what was typed is gone when it opens again.
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Access code').fill('HALF-TYPED');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await focused(opener)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await dialog.getByLabel('Access code').inputValue()).toBe('');
    await context.close();
  });

  it('the standalone form: empty, wrong, then ten wrong codes start the cool-down', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/redeem');
    await page.waitForURL(/\/accounts\/login\/\?next=%2Fredeem/);
    await logIn(page, await makeUser({ like: 'instructor', label: 'redeem' }));
    await page.goto('/redeem');
    await waitForHydration(page);
    const field = page.getByLabel('Redeem your purchase code');
    await page.getByRole('button', { name: 'Redeem' }).click();
    await page.getByText('This field may not be null.').waitFor();
    await expectAccessible(page);
    for (let i = 0; i < 10; i += 1) {
      await field.fill(`WRONG-${i}`);
      await page.getByRole('button', { name: 'Redeem' }).click();
      await page
        .getByText('This code is not valid, has already been used or has expired.')
        .waitFor();
    }
    // Even a good code waits out the cool-down.
    await field.fill(await makeRedeemCode());
    await page.getByRole('button', { name: 'Redeem' }).click();
    await page
      .getByText(/^Too many wrong codes\. Please wait \d+ minutes? before trying again\.$/)
      .waitFor();
    await context.close();
  });
});
