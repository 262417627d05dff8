import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 13: the bookstore-partner organisation's course page listed each material twice, under
// 'Available to buy/acquire' with Buy Now and again under 'Your Materials' (and so offered a
// free book as Buy Now). No demo account is in a partner section: the retailer's bookstore
// manager's opt-status download names its sections' students, who share the demo password
// (db/seed/accounts.ts); they are used by no other journey.
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** The partner organisation's sections and one student of each, from the managers' CSV. */
async function partnerSections(page: Page): Promise<{ sectionId: number; email: string }[]> {
  const found: { sectionId: number; email: string }[] = [];
  for (let sectionId = 1; sectionId <= 40; sectionId += 1) {
    const response = await page.request.get(`/manage/sections/${sectionId}/opt-status.csv`);
    if (response.status() !== 200) continue;
    const email = /[\w.+-]+@students\.demo\.test/.exec(await response.text())?.[0];
    if (email) found.push({ sectionId, email });
  }
  return found;
}

/** The titles a region of the course page lists, read from its buttons' and links' names. */
async function titlesIn(page: Page, region: string): Promise<string[]> {
  const area = page.getByRole('region', { name: region });
  if ((await area.count()) === 0) return [];
  const tiles = area.getByRole('listitem');
  const titles: string[] = [];
  for (let i = 0; i < (await tiles.count()); i += 1) {
    const tile = tiles.nth(i);
    const buyNow = tile
      .getByRole('button', { name: /^Buy Now: / })
      .or(tile.getByRole('link', { name: /^Buy Now: / }));
    if ((await buyNow.count()) > 0) {
      titles.push(
        ((await buyNow.first().getAttribute('aria-label')) ?? '').replace(/^Buy Now: /, ''),
      );
    } else {
      titles.push((await tile.locator('.item-tile__title').innerText()).trim());
    }
  }
  return titles;
}

describe('the bookstore partner course page', () => {
  it('lists each material once: Buy Now above, the rest under Your Materials', async () => {
    const managerContext = await newContext(browser);
    const manager = await managerContext.newPage();
    await logIn(manager, await makeUser({ like: 'bookstore', label: 'partner-section' }));
    const sections = await partnerSections(manager);
    await managerContext.close();
    expect(sections.length).toBeGreaterThan(0);
    let listed = 0;
    for (const { sectionId, email } of sections) {
      const context = await newContext(browser);
      const page = await context.newPage();
      await logIn(page, email);
      await page.goto(`/shelf/course-section/${sectionId}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const toBuy = await titlesIn(page, 'Available to buy/acquire');
      const yours = await titlesIn(page, 'Your Materials');
      expect(toBuy.filter((title) => yours.includes(title))).toEqual([]);
      expect(new Set(toBuy).size).toBe(toBuy.length);
      listed += toBuy.length + yours.length;
      if (toBuy.length > 0) await expectAccessible(page);
      await context.close();
    }
    // The demo's partner sections have materials this test looked at.
    expect(listed).toBeGreaterThan(0);
  });
});
