import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 5, tried as student@demo.test would: the courses under each term filter, the materials
// filtered and sorted, a material's details, the error_code modals, and a course section that
// only its members may open. Each test's people are made like the demo accounts (fixtures.ts):
// a confirmed section code or an access code is theirs alone.
const student = () => makeUser({ like: 'student', label: 'shelf' });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const courseCards = (page: import('playwright-core').Page) =>
  page.locator('.course-card__title').allInnerTexts();

describe('My Shelf, as a student', () => {
  it('lists the sections of each term, in the spec order', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf');
    await page.getByRole('heading', { name: 'My Shelf', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Your Courses' }).waitFor();
    const current = await courseCards(page);
    // Current: started and not ended, then the future one (PSY 100) last.
    expect(current).toContain('BIO 101');
    expect(current[current.length - 1]).toBe('PSY 100');
    expect(current).not.toContain('HIST 150');
    await expectAccessible(page);
    await page.getByRole('link', { name: 'Past' }).click();
    await page.waitForURL(/term=past/);
    await expect.poll(() => courseCards(page)).toEqual(['HIST 150']);
    await page.getByRole('link', { name: 'All' }).click();
    await page.waitForURL(/term=all/);
    await expect.poll(async () => (await courseCards(page)).length).toBeGreaterThan(current.length);
    const all = await courseCards(page);
    expect(all[all.length - 1]).toBe('HIST 150');
    expect(all.indexOf('PSY 100')).toBeLessThan(all.indexOf('HIST 150'));
    await context.close();
  });

  it('filters by type, sorts by title, and shows a material in the details panel', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf');
    await waitForHydration(page);
    await page.getByText('Filter', { exact: true }).click();
    await page.getByLabel('Books').check();
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/type=book/);
    const pills = await page.locator('.shelf-tile .pill').allInnerTexts();
    expect(pills.length).toBeGreaterThan(0);
    expect(new Set(pills)).toEqual(new Set(['BOOK']));
    await page.getByRole('link', { name: 'Remove filter: Books' }).waitFor();
    await page.getByLabel('Sort').selectOption('alphabetical_desc');
    await page.waitForURL(/sort=alphabetical_desc/);
    const titles = () => page.locator('.shelf-tile .item-tile__title').allInnerTexts();
    const descending = (list: string[]) =>
      [...list].sort((a, b) => b.toLowerCase().localeCompare(a.toLowerCase()));
    await expect
      .poll(async () => {
        const shown = await titles();
        return JSON.stringify(shown) === JSON.stringify(descending(shown));
      })
      .toBe(true);
    await page.getByRole('link', { name: 'Remove filter: Books' }).click();
    await page.waitForURL((url) => !url.searchParams.has('type'));
    await page.locator('.shelf-tile .item-tile__title a').first().click();
    const panel = page.getByRole('complementary');
    await panel.getByRole('heading', { name: 'Product information' }).waitFor();
    await expectAccessible(page);
    await panel.getByRole('button', { name: 'Product Details' }).click();
    const productSheet = page.getByRole('dialog', { name: 'Product Details' });
    await productSheet.getByRole('button', { name: 'Close' }).first().waitFor();
    await page.keyboard.press('Escape');
    await productSheet.waitFor({ state: 'detached' });
    // The cart side sheet opens from the shelf, loading first.
    await page.getByRole('button', { name: 'Cart', exact: true }).click();
    const cart = page.getByRole('dialog', { name: 'Cart' });
    await cart
      .getByRole('link', { name: /Checkout|cart page/i })
      .or(cart.getByText('Your cart is empty.'))
      .first()
      .waitFor();
    await page.keyboard.press('Escape');
    await context.close();
  });

  it('error_code 4 says the course has not started; code 1 asks to choose a course', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf?error_code=4');
    await waitForHydration(page);
    await page.getByRole('dialog').getByText("Sorry, this course hasn't started.").waitFor();
    await page.getByRole('button', { name: 'Close' }).click();
    await page.goto('/shelf?error_code=1');
    await waitForHydration(page);
    const modal = page.getByRole('dialog', { name: 'Choose Your Course' });
    await modal.getByRole('button', { name: 'Launch' }).click();
    await modal.getByText('You must select a course to proceed').waitFor();
    await expectAccessible(page);
    await modal.getByLabel('Course').focus();
    await modal.getByText('You must select a course to proceed').waitFor({ state: 'detached' });
    await modal.getByLabel('Course').selectOption({ index: 1 });
    await modal.getByRole('button', { name: 'Launch' }).click();
    await page.waitForURL(/\/shelf\/course-section\/\d+$/);
    await context.close();
  });

  it("the course picker names each section with its number, as the section's title does", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf?error_code=1');
    await waitForHydration(page);
    const picker = page.getByRole('dialog', { name: 'Choose Your Course' }).getByLabel('Course');
    const options = (await picker.locator('option').allInnerTexts()).slice(1);
    // spec 1 §2 Page titles: department and number, plus ': Section {number}' when numbered.
    expect(options).toContain('BIO 101: Section 001 · Principles of Biology');
    for (const option of options) expect(option).toMatch(/^[A-Z]+ \d+: Section \d+ · /);
    await picker.selectOption({ label: 'BIO 101: Section 001 · Principles of Biology' });
    await page.getByRole('button', { name: 'Launch' }).click();
    await page.getByRole('heading', { name: /^BIO 101: Section 001$/, level: 1 }).waitFor();
    await context.close();
  });
});

describe('a course section', () => {
  it('members see its materials; professors and TAs get analytics; others are forbidden', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf');
    await page.locator('.course-card__link', { hasText: 'BIO 101' }).click();
    await page.waitForURL(/\/shelf\/course-section\/\d+$/);
    const url = page.url();
    await page.getByRole('heading', { name: /^BIO 101: Section 001$/, level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Your Materials' }).waitFor();
    // The student owns the first material: Read Now.
    await page
      .getByRole('link', { name: /^Read Now: / })
      .first()
      .waitFor();
    expect(await page.getByRole('link', { name: 'View Section Analytics' }).count()).toBe(0);
    await expectAccessible(page);
    // A material opens the product side sheet over the page.
    await waitForHydration(page);
    await page.locator('.shelf-tile .item-tile__title a').first().click();
    const sheet = page.getByRole('dialog', { name: 'Product Details' });
    await sheet.getByRole('button', { name: 'Close' }).first().waitFor();
    await page.keyboard.press('Escape');
    await sheet.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Back to My Shelf' }).click();
    await page.waitForURL(/\/shelf$/);

    const ta = await newContext(browser);
    const taPage = await ta.newPage();
    await logIn(taPage, await makeUser({ like: 'ta', label: 'shelf' }));
    await taPage.goto(url);
    await taPage.getByRole('link', { name: 'View Section Analytics' }).waitFor();
    await ta.close();

    const stranger = await newContext(browser);
    const strangerPage = await stranger.newPage();
    await logIn(strangerPage, await makeUser({ like: 'bookstore', label: 'shelf' }));
    const response = await strangerPage.goto(url);
    expect(response?.status()).toBe(403);
    await strangerPage.getByText("Sorry, you can't access this page.").waitFor();
    expect((await strangerPage.goto('/shelf/course-section/abc'))?.status()).toBe(404);
    expect((await strangerPage.goto('/shelf/course-section/2000000000'))?.status()).toBe(404);
    await stranger.close();
    await context.close();
  });
});

describe('owned courseware and classrooms in the details panel', () => {
  it('courseware shows its access code, and Copy says so', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf?material=4');
    await waitForHydration(page);
    const panel = page.getByRole('complementary');
    const code = panel.getByLabel('Your access code');
    await code.waitFor();
    expect(await code.inputValue()).not.toBe('');
    await panel.getByRole('button', { name: 'Copy' }).click();
    await panel.getByText('Access code copied').waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('a classroom asks for its section code; a wrong one is refused, the right one lets the student in', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/shelf?material=5');
    await waitForHydration(page);
    const panel = page.getByRole('complementary');
    await panel.getByLabel('Section code').fill('WRONG-CODE');
    await panel.getByRole('button', { name: 'Confirm Section Code' }).click();
    await panel
      .getByText(
        'That section code does not match this classroom. Please check it with your instructor.',
      )
      .waitFor();
    await expectAccessible(page);
    await panel.getByLabel('Section code').fill(' cs120-rose ');
    await panel.getByRole('button', { name: 'Confirm Section Code' }).click();
    await page.getByRole('complementary').getByRole('link', { name: 'Access Classroom' }).waitFor();
    expect(await page.getByLabel('Section code').count()).toBe(0);
    await context.close();
  });
});
