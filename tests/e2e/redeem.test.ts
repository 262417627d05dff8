import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeRedeemCode, makeRedeemCodeFor, makeUser } from './fixtures.ts';

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
  it('a code redeemed from My Shelf: validating, then Congratulations and the title it unlocked, then the shelf', async () => {
    const { code, title } = await makeRedeemCodeFor();
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
      .getByText('This code does not exist. Check what you typed and try again.')
      .waitFor();
    // On failure the code is cleared.
    await dialog.getByLabel('Access code').and(page.locator('[value=""]')).waitFor();
    await expectAccessible(page);
    await dialog.getByLabel('Access code').fill(`  ${code} `);
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    const done = page.getByRole('dialog', { name: 'Congratulations!' });
    await done.getByText('You’ve successfully redeemed an access code.').waitFor();
    await done.getByText(`You’ve unlocked ${title}.`, { exact: true }).waitFor();
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
    // The dialog gives the focus back as it unmounts, a moment after it is hidden.
    await expect.poll(() => focused(opener), { timeout: 3_000 }).toBe(true);
    // Escape closes it too, and what was typed is gone when it opens again.
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Access code').fill('HALF-TYPED');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    // The dialog gives the focus back as it unmounts, a moment after it is hidden.
    await expect.poll(() => focused(opener), { timeout: 3_000 }).toBe(true);
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
        .getByText('This code does not exist. Check what you typed and try again.')
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

  it('issue 19: unknown, used, expired and O-for-0 codes that could be either of two each say what is wrong, in English and French', async () => {
    const used = await makeRedeemCode();
    const expired = await makeRedeemCode({ expired: true });
    // Two codes that read alike but for O and 0: typed with one of each, neither is meant.
    const zeroes = await makeRedeemCode({ suffix: '-200' });
    await makeRedeemCode({ code: zeroes.replace(/-200$/, '-2OO') });
    const eitherTwin = zeroes.replace(/-200$/, '-20O');
    const cases = {
      en: {
        locale: 'en-US',
        language: 'English',
        field: 'Redeem your purchase code',
        submit: 'Redeem',
        unknown: 'This code does not exist. Check what you typed and try again.',
        used: 'This code has already been redeemed.',
        expired: 'This code has expired. Ask whoever gave it to you for a new one.',
        zero: 'This code does not exist. Codes use the digit 0, not the letter O.',
      },
      fr: {
        locale: 'fr-CA',
        language: 'Français (Canada)',
        field: 'Utilisez votre code d’achat',
        submit: 'Utiliser',
        unknown: 'Ce code n’existe pas. Vérifiez ce que vous avez saisi et réessayez.',
        used: 'Ce code a déjà été utilisé.',
        expired: 'Ce code a expiré. Demandez-en un nouveau à la personne qui vous l’a remis.',
        zero: 'Ce code n’existe pas. Les codes utilisent le chiffre 0, et non la lettre O.',
      },
    };
    // Someone else redeems one code first.
    const first = await newContext(browser);
    const firstPage = await first.newPage();
    await logIn(firstPage, await makeUser({ label: 'redeem-first' }));
    await firstPage.goto('/redeem');
    await waitForHydration(firstPage);
    await firstPage.getByLabel('Redeem your purchase code').fill(used);
    await firstPage.getByRole('button', { name: 'Redeem' }).click();
    await firstPage.waitForURL((url) => !url.pathname.startsWith('/redeem'));
    await first.close();

    for (const words of Object.values(cases)) {
      const context = await newContext(browser);
      const page = await context.newPage();
      await logIn(page, await makeUser({ label: `redeem-${words.locale}` }));
      // The account's language, chosen as a person would (the footer's picker page).
      await page.goto('/account/language?next=/redeem');
      await page.getByLabel(words.language).check();
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith('/redeem')),
        page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
      ]);
      await waitForHydration(page);
      const field = page.getByLabel(words.field);
      const tries: [string, string][] = [
        ['NO-SUCH-CODE-HERE', words.unknown],
        [used, words.used],
        [expired, words.expired],
        [eitherTwin, words.zero],
      ];
      for (const [code, message] of tries) {
        await field.fill(code);
        await page.getByRole('button', { name: words.submit, exact: true }).click();
        await page.getByText(message, { exact: true }).waitFor();
      }
      await expectAccessible(page);
      await context.close();
    }

    // The dialog on the shelf says the same.
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'redeem-dialog' }));
    await page.goto('/shelf');
    await waitForHydration(page);
    await page.getByRole('button', { name: 'Redeem Shelfmark Access Code' }).click();
    const dialog = page.getByRole('dialog', { name: 'Redeem Your Access Code' });
    await dialog.getByLabel('Access code').fill(expired);
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    await dialog.getByText(cases.en.expired).waitFor();
    await dialog.getByLabel('Access code').fill(eitherTwin);
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    await dialog.getByText(cases.en.zero).waitFor();
    await expectAccessible(page);
    // The right code still redeems.
    await dialog.getByLabel('Access code').fill(zeroes);
    await dialog.getByRole('button', { name: 'Redeem' }).click();
    await page.getByRole('dialog', { name: 'Congratulations!' }).waitFor();
    await context.close();
  });

  it('issue 38: a code typed as people type it redeems, and the library says which title it unlocked, with its button, in English and French', async () => {
    const cases = [
      {
        language: 'English',
        field: 'Redeem your purchase code',
        submit: 'Redeem',
        title: 'Congratulations!',
        unlocked: (title: string) => `You’ve unlocked ${title}.`,
        read: (title: string) => `Read Now: ${title}`,
      },
      {
        language: 'Français (Canada)',
        field: 'Utilisez votre code d’achat',
        submit: 'Utiliser',
        title: 'Félicitations!',
        unlocked: (title: string) => `Vous avez déverrouillé ${title}.`,
        read: (title: string) => `Lire maintenant : ${title}`,
      },
    ];
    for (const words of cases) {
      const { code, title } = await makeRedeemCodeFor({ suffix: '-2026' });
      // Lower case, spaces for hyphens, one hyphen too many, and the letter o for the 0.
      const typed = ` ${code
        .toLowerCase()
        .replaceAll('-', ' ')
        .replace(/ 2026$/, '-- 2o26')}`;
      const context = await newContext(browser);
      const page = await context.newPage();
      await logIn(page, await makeUser({ label: 'redeem-typed' }));
      await page.goto('/account/language?next=/redeem');
      await page.getByLabel(words.language).check();
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith('/redeem')),
        page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
      ]);
      await waitForHydration(page);
      await page.getByLabel(words.field).fill(typed);
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith('/library')),
        page.getByRole('button', { name: words.submit, exact: true }).click(),
      ]);
      const notice = page.getByRole('region', { name: words.title });
      await notice.getByText(words.unlocked(title), { exact: true }).waitFor();
      await expectAccessible(page);
      await Promise.all([
        page.waitForURL((url) => url.pathname.startsWith('/book/read/')),
        notice.getByRole('link', { name: words.read(title) }).click(),
      ]);
      await context.close();
    }
  });
});
