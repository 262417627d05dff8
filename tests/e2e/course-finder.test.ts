import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { academicTermOf } from '#domain/courses/academic-term.ts';
import { expectAccessible, launchBrowser, logIn, newContext } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Find your course materials (issue 19): a visitor who is not signed in finds BIO 101's
// materials from the home page, step by step, in English and French, and never sees who is in
// the section.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// The demo's current sections started 35 days before the server seeded them (db/seed/courses.ts).
const current = academicTermOf(new Date(Date.now() - 35 * 86_400_000).toISOString().slice(0, 10));
const SEASONS = {
  en: { fall: 'Fall', 'winter-spring': 'Winter/Spring', summer: 'Summer' },
  fr: { fall: 'Automne', 'winter-spring': 'Hiver-printemps', summer: 'Été' },
};
const termName = (lang: 'en' | 'fr') => `${SEASONS[lang][current.season]} ${current.year}`;

/** Presses Tab until the link named `name` has the focus, then Enter: the keyboard's way. */
async function tabToAndPress(page: Page, name: string) {
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (focused === name) {
      await page.keyboard.press('Enter');
      return;
    }
  }
  throw new Error(`Tab never reached ${name}`);
}

describe('Find your course materials (issue 19)', () => {
  it('issue 19: logged out, from the home page through school, term, department, course and section to a product page', async () => {
    const classmate = await makeUser({ like: 'student', label: 'finder-classmate' });
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Find your course materials' }).click();
    await page.getByRole('heading', { level: 1, name: 'Find your course materials' }).waitFor();
    await page.getByRole('heading', { name: 'Choose your school' }).waitFor();
    expect(await page.title()).toBe('Find your course materials | Shelfmark');
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Northfield State University' }).click();
    await page.getByRole('heading', { name: 'Choose your term' }).waitFor();
    await expectAccessible(page);

    // By keyboard: Tab to the term, Enter.
    await tabToAndPress(page, termName('en'));
    await page.getByRole('heading', { name: 'Choose your department' }).waitFor();
    // The pressed link is gone: the focus is on the new step's heading, so Tab goes on from it.
    await page.waitForFunction(() => document.activeElement?.id === 'finder-step');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Choose your department',
    );
    const crumbs = page.getByRole('navigation', { name: 'Your choices' });
    await crumbs.getByRole('link', { name: 'Northfield State University' }).waitFor();
    expect(await crumbs.locator('[aria-current="page"]').innerText()).toBe(termName('en'));
    await expectAccessible(page);

    await page.getByRole('link', { name: 'Biology (BIO)' }).click();
    await page.getByRole('heading', { name: 'Choose your course' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('link', { name: 'BIO 101 Principles of Biology' }).click();
    await page.getByRole('heading', { name: 'Choose your section' }).waitFor();
    await expectAccessible(page);

    await page.getByRole('link', { name: /^Section 001 / }).click();
    await page.getByRole('heading', { level: 1, name: 'BIO 101: Section 001' }).waitFor();
    expect(await page.title()).toBe('BIO 101 course materials | Shelfmark');
    await crumbs.getByRole('link', { name: 'Biology (BIO)' }).waitFor();
    const required = page.getByRole('region', { name: 'Required materials' });
    const optional = page.getByRole('region', { name: 'Optional materials' });
    expect(await required.getByRole('heading', { level: 3 }).count()).toBe(2);
    expect(await optional.getByRole('heading', { level: 3 }).count()).toBe(1);
    // Offerings with prices.
    expect(
      await required
        .getByRole('list', { name: /^Ways to get / })
        .first()
        .innerText(),
    ).toMatch(/\$\d+\.\d\d/);
    // Issue 38: courseware is opened online, not an eBook rental; every offering is named by
    // the one rule (offering-terms.ts) and a price of nothing says "Free".
    const coursewareWays = await optional.getByRole('list', { name: /^Ways to get / }).innerText();
    expect(coursewareWays).toMatch(/^Online access · (\d+-day access|Lifetime access): /);
    expect(coursewareWays).not.toContain('eBook');
    for (const way of await page.locator('.finder-offerings li').allInnerTexts()) {
      expect(way).toMatch(
        /^(eBook|Online access|Print|Print on demand|Item|eBook \+ Print) · .+: (\$\d+\.\d\d|Free)$/,
      );
      expect(way).not.toContain('$0.00');
    }
    await expectAccessible(page);

    // Never who is enrolled: no member's name, e-mail or count.
    const text = await page.locator('main').innerText();
    // (Whole names: a surname alone may be an author's.)
    for (const who of [`${classmate.firstName} ${classmate.lastName}`, classmate.email]) {
      expect(text).not.toContain(who);
    }
    expect(text).not.toMatch(/\b\d+\s+(students?|members?|enrolled)\b|enrolled|students/i);

    const first = required.getByRole('heading', { level: 3 }).first();
    const title = (await first.innerText()).trim();
    await first.getByRole('link').click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await context.close();
  });

  it('issue 19: en français, du choix de l’établissement au matériel de la section', async () => {
    const context = await newContext(browser, { locale: 'fr-CA' });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('link', { name: 'Trouver le matériel de vos cours' }).click();
    await page.getByRole('heading', { name: 'Choisissez votre établissement' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Northfield State University' }).click();
    await page.getByRole('heading', { name: 'Choisissez votre session' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: termName('fr') }).click();
    await page.getByRole('heading', { name: 'Choisissez votre département' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Biologie (BIO)' }).click();
    await page.getByRole('heading', { name: 'Choisissez votre cours' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: 'BIO 101 Principles of Biology' }).click();
    await page.getByRole('heading', { name: 'Choisissez votre section' }).waitFor();
    await expectAccessible(page);
    await page.getByRole('link', { name: /^Section 001 / }).click();
    await page.getByRole('heading', { level: 1, name: 'BIO 101 : Section 001' }).waitFor();
    await page.getByRole('heading', { name: 'Matériel obligatoire' }).waitFor();
    await page.getByRole('heading', { name: 'Matériel facultatif' }).waitFor();
    await page
      .getByRole('navigation', { name: 'Vos choix' })
      .getByRole('link', { name: termName('fr') })
      .waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('issue 19: unknown or malformed choices answer 404 with a message in the visitor’s language', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    expect((await page.goto('/courses/find?school=abc'))?.status()).toBe(404);
    await page.getByRole('heading', { name: 'Sorry, we could not find that school.' }).waitFor();
    expect((await page.goto('/courses/find/sections/99999999'))?.status()).toBe(404);
    await page
      .getByRole('heading', { name: 'Sorry, we could not find that course section.' })
      .waitFor();
    await expectAccessible(page);
    await context.close();
    const french = await newContext(browser, { locale: 'fr-CA' });
    const frPage = await french.newPage();
    expect((await frPage.goto('/courses/find/sections/1x'))?.status()).toBe(404);
    await frPage
      .getByRole('heading', { name: 'Désolé, nous n’avons pas trouvé cette section de cours.' })
      .waitFor();
    await french.close();
  });

  it('issue 19: search understands BIO 101 and points to the finder; My Shelf links to it once', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto('/search?terms=Biology%20101');
    await page.getByText(/The first \d+ results are the materials of Biology 101\./).waitFor();
    await expectAccessible(page);
    await page.getByRole('main').getByRole('link', { name: 'Find your course materials' }).click();
    await page.getByRole('heading', { name: 'Choose your school' }).waitFor();
    const student = await makeUser({ like: 'student', label: 'finder-shelf' });
    await logIn(page, student);
    await page.goto('/shelf');
    expect(
      await page
        .getByRole('main')
        .getByRole('link', { name: 'Find your course materials' })
        .count(),
    ).toBe(1);
    await context.close();
  });

  it('issue 38: a misspelt course code and the course’s own name find BIO 101’s materials as BIO 101 does', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    /** The search's first results, as a list of their titles, and what it says of them. */
    const firstResults = async (terms: string) => {
      await page.goto(`/search?terms=${encodeURIComponent(terms)}`);
      const said = page.getByText(/The first \d+ results are the materials of BIO 101\./);
      await said.waitFor();
      const count = Number((await said.innerText()).match(/\d+/)![0]);
      const titles = await page
        .getByRole('main')
        .getByRole('heading', { level: 2 })
        .allInnerTexts();
      return titles.slice(0, count);
    };
    const expected = await firstResults('BIO 101');
    expect(expected.length).toBeGreaterThan(0);
    for (const terms of ['biolgy 101', 'Principles of Biology', 'principals of biolgy']) {
      expect(await firstResults(terms), terms).toEqual(expected);
    }
    await expectAccessible(page);
    await context.close();
    // En français aussi.
    const french = await newContext(browser, { locale: 'fr-CA' });
    const frPage = await french.newPage();
    await frPage.goto(`/search?terms=${encodeURIComponent('biolgy 101')}`);
    await frPage.getByText(/Les \d+ premiers résultats sont le matériel de BIO 101\./).waitFor();
    await french.close();
  });
});
