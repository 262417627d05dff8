import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 38, "What the course fee covers is one list": BIO 101's course page, its opting
// facts, the public section page and the page about inclusive access all say the same list
// (domain/courses/fee-covers.ts); Acquire Code ends where the code is; an opted-out student
// is told how to buy or rent each closed material. Each journey makes its own student.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openBio(page: Page): Promise<void> {
  await page.goto('/shelf');
  await page.locator('.course-card__link', { hasText: 'BIO 101' }).click();
  await page.waitForURL(/\/shelf\/course-section\/\d+$/);
  await page.getByRole('heading', { name: /^BIO 101: Section 001$/, level: 1 }).waitFor();
  await waitForHydration(page);
}

const banner = (page: Page) => page.getByRole('region', { name: 'Inclusive access' });
const materials = (page: Page) => page.getByRole('region', { name: 'Your Materials' });

/** The titles of the course page's tiles that carry the course-fee badge. */
async function badgedTitles(page: Page): Promise<string[]> {
  const tiles = materials(page).locator('li', { hasText: 'Included in your course fee' });
  return (await tiles.locator('.item-tile__title').allInnerTexts()).map((title) => title.trim());
}

describe('what the course fee covers, said once (issue 38)', () => {
  it('the course page’s badges are the opting facts’ list, and the public page says the same', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'course-fee-list' }));
    await openBio(page);
    const badged = await badgedTitles(page);
    expect(badged.length).toBe(3);

    await banner(page).locator('summary', { hasText: 'Learn More' }).click();
    const listed = (await banner(page).locator('#opting-facts li').allTextContents()).map((item) =>
      item.replace(/ \([^)]*\): .*$/, ''),
    );
    expect([...listed].sort()).toEqual([...badged].sort());
    await expectAccessible(page);

    // The public section page: the same three, the optional courseware among them.
    const sectionId = page.url().match(/course-section\/(\d+)$/)![1];
    await page.goto(`/courses/find/sections/${sectionId}`);
    await page.getByRole('heading', { level: 1, name: 'BIO 101: Section 001' }).waitFor();
    await page
      .getByText(
        /^This section has a course fee of \$79\.00\. Everyone taking it gets the materials marked/,
      )
      .waitFor();
    const included = page.locator('.finder-material', { hasText: 'Included in the course fee' });
    expect((await included.locator('h3').allInnerTexts()).map((t) => t.trim()).sort()).toEqual(
      [...badged].sort(),
    );
    const optional = page.getByRole('region', { name: 'Optional materials' });
    expect(await optional.getByText('Included in the course fee').count()).toBe(1);
    await expectAccessible(page);

    // Learn more: a real page about inclusive access, in English and in French.
    await page.getByRole('link', { name: 'Learn more about inclusive access' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Inclusive access and your course fee' })
      .waitFor();
    for (const heading of [
      'What the course fee covers',
      'How the course fee is billed',
      'Opting out and back in',
      'The opting deadline',
      'If you opt out',
    ]) {
      await page.getByRole('heading', { level: 2, name: heading }).waitFor();
    }
    expect(await page.title()).toBe('Inclusive access and your course fee | Shelfmark');
    await expectAccessible(page);
    await context.addCookies([{ name: 'LANG', value: 'fr-CA', url: page.url() }]);
    await page.reload();
    await page
      .getByRole('heading', { level: 1, name: 'L’accès inclusif et vos frais de cours' })
      .waitFor();
    await page
      .getByRole('heading', { level: 2, name: 'Ce que couvrent les frais de cours' })
      .waitFor();
    await expectAccessible(page);
    await context.close();
  });

  it('Acquire Code ends on the material’s panel, where its code is; Learn More’s link opens the page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'course-fee-acquire' }));
    await openBio(page);
    const acquire = materials(page).getByRole('button', { name: /^Acquire Code: / });
    const title = ((await acquire.getAttribute('aria-label')) ?? '').replace(/^Acquire Code: /, '');
    await acquire.click();
    await page.waitForURL(/\/shelf\?material=\d+#material-panel$/);
    await page.getByRole('heading', { name: title }).first().waitFor();
    await page.getByRole('heading', { name: 'Access code' }).waitFor();
    await page.getByLabel('Your access code').waitFor();
    // In view and focused, not below the fold (the walk found it there at 1280 × 800).
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('material-panel');
    const top = await page
      .locator('#material-panel')
      .evaluate((panel) => panel.getBoundingClientRect().top);
    expect(top).toBeLessThan(page.viewportSize()!.height / 2);
    await expectAccessible(page);
    // On My Shelf its tile says it comes with the course fee, never "Free Access".
    const tile = page.locator('.shelf-tile', { hasText: title }).first();
    await tile.getByText('Included in your course fee', { exact: true }).waitFor();
    expect(await tile.getByText(/Free/).count()).toBe(0);

    await openBio(page);
    await banner(page).locator('summary', { hasText: 'Learn More' }).click();
    await banner(page).getByRole('link', { name: 'More about inclusive access' }).click();
    await page
      .getByRole('heading', { level: 1, name: 'Inclusive access and your course fee' })
      .waitFor();
    await context.close();
  });

  it('an opted-out student is told, on each closed material, how to buy or rent it instead', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'student', label: 'course-fee-opted-out' }));
    await openBio(page);
    await banner(page).getByRole('button', { name: 'Opt Out' }).click();
    let dialog = page.getByRole('dialog', { name: 'Are you sure you want to opt out?' });
    await dialog.getByRole('button', { name: 'Continue to Opt Out' }).click();
    dialog = page.getByRole('dialog', { name: 'Confirm that you want to opt out' });
    await dialog.getByLabel('Type OPTOUT to confirm').fill('OPTOUT');
    await dialog.getByRole('button', { name: 'Opt Out' }).click();
    dialog = page.getByRole('dialog', { name: 'Why are you opting out?' });
    await dialog.getByRole('radio', { name: 'needed a print copy' }).check();
    await dialog.getByRole('button', { name: 'Submit' }).click();
    dialog = page.getByRole('dialog', { name: 'You are now opted out' });
    await dialog.getByRole('button', { name: 'Close' }).click();
    await page.reload();
    await waitForHydration(page);

    expect(await materials(page).getByText('Included in your course fee').count()).toBe(0);
    const ways = materials(page).getByRole('link', { name: /^Buy or rent .+ instead$/ });
    expect(await ways.count()).toBeGreaterThan(0);
    await expectAccessible(page);
    const name = (await ways.first().getAttribute('aria-label')) ?? '';
    const title = name.replace(/^Buy or rent /, '').replace(/ instead$/, '');
    await ways.first().click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(await page.getByRole('radio').count()).toBeGreaterThan(0);
    await context.close();
  });
});
