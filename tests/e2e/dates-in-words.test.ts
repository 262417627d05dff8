import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locale } from '#domain/accounts/language.ts';
import { formatDay } from '#i18n/format-day.ts';
import { chooseLanguage, expectAccessible, launchBrowser, logIn, newContext } from './browser.ts';
import { feedEbook, makeOwnership, makeUser } from './fixtures.ts';

// Issue 16, from the French walk: a sentence says its date in the reader's language
// ("ended on May 1, 2026", « a pris fin le 1er mai 2026 »), not as 2026-05-01. The domain keeps
// the day; the message formats it ({date, date, long}, i18n/format-message.ts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const DAY_MS = 86_400_000;

/** The day a rental that ended `daysAgo` days ago ended on, in words, as the page says it. */
function endedOn(daysAgo: number, locale: Locale): string {
  // The store's one way of writing a day (« 1er mai 2026 » on the first of a month).
  return formatDay(locale, Date.now() - daysAgo * DAY_MS);
}

describe('dates in sentences', () => {
  it('a rental that ended: its day in words on the shelf and on the closed book, in French and English', async () => {
    const user = await makeUser({ like: 'student', label: 'dates-words' });
    const productId = await feedEbook();
    await makeOwnership(user.email, productId, { endedDaysAgo: 3 });
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, user);

    await chooseLanguage(page, 'Français (Canada)', '/shelf');
    const french = endedOn(3, 'fr-CA');
    const lost = page.getByText(/^Votre accès à .+ a pris fin le /);
    expect(await lost.innerText()).toMatch(new RegExp(`a pris fin le ${french}\\.`));
    expect(await lost.innerText()).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await expectAccessible(page);

    const response = await page.goto(`/book/read/${productId}`);
    expect(response?.status()).toBe(403);
    await page.getByText(`Votre accès à ce livre a pris fin le ${french}.`).waitFor();

    await chooseLanguage(page, 'English', `/book/read/${productId}`);
    await page.getByText(`Your access to this book ended on ${endedOn(3, 'en')}.`).waitFor();
    await context.close();
  });
});
