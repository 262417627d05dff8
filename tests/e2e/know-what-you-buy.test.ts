import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 19, "Know what you are buying and what you bought", walked as a new student would, in
// English and in French: the product page says each offering's term in plain words and when a
// rental would end if bought today; Add To Cart confirms in a live region with a link to the
// cart; the cart line says which offering it is; the order page carries the order number, the
// card's last four digits and the offering. Each shopper is made for this journey (fixtures.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DAY_MS = 86_400_000;

// Demo books to try in turn (db/seed/catalog.ts fixtures first, then the catalogue): their
// digital durations are drawn at random, so the journey takes the first that is rented.
const CANDIDATES = [14, 12, 11, 13, 1, 2, 6, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40];

type Words = {
  rental: RegExp;
  days: (match: RegExpMatchArray) => number;
  endsOn: (date: string) => string;
  whenEnds: string;
  addToCart: string;
  added: string;
  viewYourCart: string;
  checkout: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  pay: RegExp;
  orderNumber: RegExp;
  paidWith: string;
  onShelf: string;
  locale: string;
};

const EN: Words = {
  rental: /eBook · (\d+)-day rental/,
  days: (match) => Number(match[1]),
  endsOn: (date) => `If bought today, it ends on ${date}.`,
  whenEnds:
    'When a rental ends, your access ends; your place in the book is kept and you can buy it to read again.',
  addToCart: 'Add To Cart',
  added: 'Added to your cart.',
  viewYourCart: 'View your cart',
  checkout: 'Checkout',
  cardNumber: 'Card number',
  expiry: 'Expiration (MM/YY)',
  cvc: 'Security code (CVC)',
  pay: /^Pay \$/,
  orderNumber: /^Order number: [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/,
  paidWith: 'Paid with Visa ending in 4242',
  onShelf: 'Your order is complete. Digital items are on your shelf now.',
  locale: 'en',
};

const FR: Words = {
  rental: /Livre numérique · Location de (\d+) jours/,
  days: (match) => Number(match[1]),
  endsOn: (date) => `Acheté aujourd’hui, il prend fin le ${date}.`,
  whenEnds:
    'À la fin d’une location, votre accès prend fin; l’endroit où vous en étiez dans le livre est conservé et vous pouvez l’acheter pour le lire de nouveau.',
  addToCart: 'Ajouter au panier',
  added: 'Ajouté à votre panier.',
  viewYourCart: 'Voir votre panier',
  checkout: 'Paiement',
  cardNumber: 'Numéro de carte',
  expiry: 'Expiration (MM/AA)',
  cvc: 'Code de sécurité (CVC)',
  pay: /^Payer /,
  orderNumber: /^Numéro de commande : [0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}$/,
  paidWith: 'Payé avec Visa se terminant par 4242',
  onShelf: 'Votre commande est terminée. Les articles numériques sont déjà sur votre étagère.',
  locale: 'fr-CA',
};

async function chooseFrench(page: Page): Promise<void> {
  await page.goto('/account/language?next=/shelf');
  await page.getByLabel('Français (Canada)').check();
  await Promise.all([
    page.waitForURL((url) => url.pathname.startsWith('/shelf')),
    page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
  ]);
  await waitForHydration(page);
}

/** The first candidate book whose page offers a digital rental, and that rental's radio. */
async function rentedBook(page: Page, words: Words) {
  for (const id of CANDIDATES) {
    await page.goto(`/book/${id}`);
    await waitForHydration(page);
    const rental = page.getByRole('radio', { name: words.rental }).first();
    if ((await rental.count()) > 0 && (await rental.isEnabled())) return rental;
  }
  throw new Error('no demo book offers a digital rental');
}

async function buyARental(words: Words): Promise<void> {
  const context = await newContext(browser);
  const page = await context.newPage();
  await logIn(page, await makeUser({ label: `know-what-you-buy-${words.locale}` }));
  if (words.locale === 'fr-CA') await chooseFrench(page);

  // The product page: the rental in plain words, the day it would end, what happens then.
  const rental = await rentedBook(page, words);
  // The radio's label: its type, its term and its price.
  const label = (
    await rental.evaluate((input) => (input as HTMLInputElement).labels?.[0]?.innerText ?? '')
  ).replace(/\s+/g, ' ');
  const days = words.days(label.match(words.rental)!);
  const term = label.match(words.rental)![0];
  const endsOn = new Intl.DateTimeFormat(words.locale, {
    dateStyle: 'long',
    timeZone: 'America/New_York',
  }).format(new Date(Date.now() + days * DAY_MS));
  await page.getByText(words.endsOn(endsOn), { exact: true }).waitFor();
  await page.getByText(words.whenEnds, { exact: true }).waitFor();
  await expectAccessible(page);

  // Add To Cart: confirmed in a live region, with a link to the cart.
  await rental.check();
  await page.getByRole('button', { name: words.addToCart }).click();
  const status = page.getByRole('status').filter({ hasText: words.added });
  await status.waitFor();
  await expectAccessible(page);
  await status.getByRole('link', { name: words.viewYourCart }).click();

  // The cart line says which offering it is.
  await page.waitForURL(/\/cart\/?$/);
  await waitForHydration(page);
  await page.getByText(term, { exact: true }).waitFor();
  await expectAccessible(page);
  await page.getByRole('link', { name: words.checkout, exact: true }).click();
  await waitForHydration(page);
  await expectAccessible(page);
  await page.getByLabel(words.cardNumber).fill('4242 4242 4242 4242');
  await page.getByLabel(words.expiry).fill('12/30');
  await page.getByLabel(words.cvc).fill('123');
  await page.getByRole('button', { name: words.pay }).click();

  // The order page: number, card's last four, the offering, what happens next.
  await page.waitForURL(/\/checkout\/complete\/[0-9a-f-]{36}$/);
  await waitForHydration(page);
  await page.getByText(words.orderNumber).waitFor();
  await page.getByText(words.paidWith, { exact: true }).waitFor();
  await page.getByText(term, { exact: true }).waitFor();
  await page.getByText(words.onShelf, { exact: true }).waitFor();
  await expectAccessible(page);
  await context.close();
}

describe('know what you are buying and what you bought (issue 19)', () => {
  it('in English: a rental’s term and end, the cart confirmation and line, the order’s number and card', async () => {
    await buyARental(EN);
  });

  it('in French: the same walk, in French', async () => {
    await buyARental(FR);
  });

  it('issue 38: lab goggles are an item that is shipped, not a print copy', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/search?terms=Lab%20Safety%20Goggles');
    await page
      .getByRole('link', { name: /Lab Safety Goggles/ })
      .first()
      .click();
    await page.getByRole('heading', { level: 1, name: /Lab Safety Goggles/ }).waitFor();
    const item = page.getByRole('radio', { name: /^Item · Shipped to you / });
    await item.first().waitFor();
    expect(await page.getByRole('radio', { name: /Print/ }).count()).toBe(0);
    await context.close();
  });

  it('where the navbar cart shows (the retailer’s organisation), it carries the item count', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'bookstore', label: 'know-what-you-buy-count' }));
    const navbarCart = page.getByRole('banner').getByRole('link', { name: /^Cart/ });
    await expect.poll(() => navbarCart.getAttribute('aria-label')).toBe('Cart, no items');
    const rental = await rentedBook(page, EN);
    await rental.check();
    await page.getByRole('button', { name: 'Add To Cart' }).click();
    await page.getByRole('status').filter({ hasText: 'Added to your cart.' }).waitFor();
    await expect.poll(() => navbarCart.getAttribute('aria-label')).toBe('Cart, 1 item');
    await expectAccessible(page);
    await context.close();
  });
});
