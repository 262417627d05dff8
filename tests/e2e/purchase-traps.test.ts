import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, newContext, waitForHydration } from './browser.ts';
import { makeOwnership, makeUser } from './fixtures.ts';

// Issue 19, money traps, as the outside check found them: browse logged out, add a book, sign
// in at checkout — the guest cart merged and checkout asked the student to pay for a title
// they already owned. Product 6 is a plain e-book of the demo catalog (db/seed/catalog.ts);
// each journey's student is made for it and given it for life (fixtures.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const TEXTS = {
  en: {
    locale: 'en-US',
    add: 'Add To Cart',
    email: 'E-mail',
    password: 'Password',
    logIn: 'Log In',
    heading: 'We changed your cart',
    line: 'was taken out of your cart. You already own this title for life.',
    nothing: 'Nothing is left to pay for.',
    owned: 'You already own this title.',
  },
  fr: {
    locale: 'fr-CA',
    add: 'Ajouter au panier',
    email: 'Courriel',
    password: 'Mot de passe',
    logIn: 'Se connecter',
    heading: 'Nous avons modifié votre panier',
    line: 'a été retiré de votre panier. Vous possédez déjà ce titre à vie.',
    nothing: 'Il n’y a plus rien à payer.',
    owned: 'Vous possédez déjà ce titre.',
  },
} as const;

describe('issue 19: nobody pays for what they already have', () => {
  for (const [language, text] of Object.entries(TEXTS)) {
    it(`${language}: a guest cart merged at checkout loses the owned title and says why; no Pay button`, async () => {
      const student = await makeUser({ label: 'owned-trap' });
      await makeOwnership(student.email, 6);
      const context = await newContext(browser, { locale: text.locale });
      const page = await context.newPage();
      await page.goto('/book/6');
      await waitForHydration(page);
      const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
      // Logged out, the store cannot know the title is theirs: it goes in the guest cart.
      await page.getByRole('button', { name: text.add, exact: true }).click();
      await page.waitForURL(/\/book\/6/);
      await page.goto('/checkout/');
      await page.waitForURL(/\/accounts\/login\/\?next=/);
      await page.getByLabel(text.email).fill(student.email);
      await page.getByLabel(text.password).fill(student.password);
      await page.getByRole('button', { name: text.logIn }).click();
      await page.waitForURL(/\/checkout\/$/);
      const notice = page.getByRole('status').filter({ hasText: text.heading });
      await notice.waitFor();
      expect(await notice.innerText()).toContain(`${title} ${text.line}`);
      await page.getByText(text.nothing).waitFor();
      expect(await page.getByRole('button', { name: /^(Pay|Payer) / }).count()).toBe(0);
      await expectAccessible(page);
      // The product page says they own it, and offers no digital copy to buy.
      await page.goto('/book/6');
      await waitForHydration(page);
      await page.getByText(text.owned).waitFor();
      expect(await page.getByRole('button', { name: text.add, exact: true }).count()).toBe(0);
      await context.close();
    });
  }
});
