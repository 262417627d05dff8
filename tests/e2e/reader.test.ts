import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { makeUser } from './fixtures.ts';

// Issue 5, Reading and files, as readers and an instructor would try it. Demo data
// (db/seed/shelf.ts, courses.ts): student@demo.test owns product 1 (an EPUB, through the
// bio001 section, the first section), whose reader file is book file 1 and whose study guide
// is book file 2; instructor@demo.test is bio001's professor; ta@demo.test owns none of it.
// Each test reads as a user of its own made like them (fixtures.ts): positions, copies and
// printed pages are counted per reader.
const student = () => makeUser({ like: 'student', label: 'reader' });

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const status = (page: Page) => page.getByRole('status').filter({ hasText: /^Page \d+ of \d+/ });

async function statusText(page: Page): Promise<string> {
  return (await status(page).innerText()).trim();
}

/** Presses a key and waits until the page status says something else (a person sees it). */
async function turn(page: Page, key: string): Promise<string> {
  const before = await statusText(page);
  await page.keyboard.press(key);
  await page.waitForFunction(
    (old) =>
      [...document.querySelectorAll('output')].some((o) => {
        const text = o.textContent?.trim() ?? '';
        return /^Page \d+ of \d+/.test(text) && text !== old;
      }),
    before,
  );
  return statusText(page);
}

describe('the reader, as the student who owns the book', () => {
  it('opens from its URL, turns pages with the keyboard, and a reload lands on the same place', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1000, height: 720 });
    await logIn(page, await student());
    const response = await page.goto('/book/read/1');
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await status(page).waitFor();
    expect(await statusText(page)).toMatch(/^Page 1 of \d+, Chapter 1: /);
    await page.getByRole('navigation', { name: 'Chapters' }).waitFor();
    await expectAccessible(page);

    await turn(page, 'ArrowRight');
    await turn(page, 'PageDown');
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/reading/1/position') && r.request().method() === 'PUT',
    );
    const place = await turn(page, 'ArrowRight');
    expect(place).not.toMatch(/^Page 1 of \d+, Chapter 1: /);
    expect((await saved).status()).toBe(204);

    await page.reload();
    await waitForHydration(page);
    await page.waitForFunction(
      (expected) =>
        [...document.querySelectorAll('output')].some((o) => o.textContent?.trim() === expected),
      place,
    );
    expect(await statusText(page)).toBe(place);
    // And back again, across the chapter boundary if there is one.
    const back = await turn(page, 'ArrowLeft');
    expect(back).not.toBe(place);
    await context.close();
  });

  it('a PDF opens in pdf.js with its real text, and pages turn with the keyboard', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/book/read/2');
    await waitForHydration(page);
    await page
      .getByRole('status')
      .filter({ hasText: /^Page 1 of \d+$/ })
      .waitFor();
    const pageOne = page.getByRole('region', { name: 'Page 1' });
    await pageOne
      .getByText(/\w{4,}/)
      .first()
      .waitFor();
    await expectAccessible(page);
    await page.keyboard.press('ArrowRight');
    await page
      .getByRole('status')
      .filter({ hasText: /^Page 2 of \d+$/ })
      .waitFor();
    await page
      .getByRole('region', { name: 'Page 2' })
      .getByText(/\w{4,}/)
      .first()
      .waitFor();
    // Its display settings: pages or scrolling and theme; not the font, spacing or margins of
    // pages its publisher laid out, and its size is its zoom, beside the page (issue 38).
    await page.getByText('Display settings', { exact: true }).click();
    const groups = await page
      .locator('.reader__tools details[open] fieldset')
      .evaluateAll((sets) => sets.map((set) => set.querySelector('legend')?.textContent));
    expect(groups).toEqual(['Layout', 'Theme']);
    await page
      .getByRole('group', { name: 'Zoom' })
      .getByRole('button', { name: 'Zoom in' })
      .waitFor();
    await context.close();
  });

  it('finds words in the book and opens the page of a hit', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await page.getByText('Search in this book', { exact: true }).click();
    await page.getByLabel('Words to find').fill('Chapter 3');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page
      .getByRole('status')
      .filter({ hasText: /results? for “Chapter 3”/ })
      .waitFor();
    await page
      .getByRole('button', { name: /Chapter 3/ })
      .first()
      .click();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('output')].some((o) => /Chapter 3: /.test(o.textContent ?? '')),
    );
    await expectAccessible(page);
    // Nothing to find: said, and the last results go.
    await page.getByLabel('Words to find').fill('   ');
    await page.getByRole('button', { name: 'Search', exact: true }).last().click();
    await page.getByText('Please enter a valid search term.').waitFor();
    expect(await page.locator('.reader-search__hits').count()).toBe(0);
    await context.close();
  });

  it('the page the server sends is the one the browser first draws: no hydration error, EPUB or PDF', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    await logIn(page, await student());
    for (const book of ['/book/read/1', '/book/read/2']) {
      await page.goto(book);
      await waitForHydration(page);
      await status(page).waitFor();
    }
    expect(errors.filter((text) => /Minified React error #4\d\d|[Hh]ydrat/.test(text))).toEqual([]);
    await context.close();
  });

  it('scrolling to the end of a chapter in scrolling mode shows its last page in the status', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, await student());
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await status(page)
      .filter({ hasText: /Chapter 1/ })
      .waitFor();
    await page.getByText('Display settings', { exact: true }).click();
    await page.getByRole('radio', { name: 'Scrolling' }).check();
    await page.locator('.reader-text--scrolled').waitFor();
    await page.locator('.reader-text--scrolled').evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    await expect
      .poll(async () => {
        const [, shown, of] = /^Page (\d+) of (\d+)/.exec(await statusText(page)) ?? [];
        return shown !== undefined && shown === of;
      })
      .toBe(true);
    await context.close();
  });

  it('the last chapter asked for is the one shown, whichever answer comes last', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.setViewportSize({ width: 1100, height: 800 });
    await logIn(page, await student());
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await status(page)
      .filter({ hasText: /Chapter 1/ })
      .waitFor();
    // The third chapter's answer is slow; the second is asked for meanwhile.
    await page.route(/\/api\/reading\/1\/parts\/2$/, async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await route.continue();
    });
    const chapters = page.getByRole('navigation', { name: 'Table of contents' });
    if (!(await chapters.isVisible()))
      await page.getByText('Table of contents', { exact: true }).click();
    await chapters.getByRole('link', { name: /^Chapter 3\b/ }).click();
    await chapters.getByRole('link', { name: /^Chapter 2\b/ }).click();
    await status(page)
      .filter({ hasText: /Chapter 2/ })
      .waitFor();
    await page.waitForResponse(/\/api\/reading\/1\/parts\/2$/);
    await page.waitForTimeout(300);
    expect(await statusText(page)).toMatch(/Chapter 2/);
    await context.close();
  });

  it('a copy past the copy limit is refused with the message', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await status(page).waitFor();
    const text = page.getByRole('region', { name: /^Book text/ });
    const copyButton = page.getByRole('button', { name: 'Copy selection' });
    const messages = page.getByRole('status').filter({ hasText: /cop(y|ied)/i });
    // A few words fit in the allowance...
    await text.evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el.querySelector('h2') ?? el);
      getSelection()?.removeAllRanges();
      getSelection()?.addRange(range);
    });
    await copyButton.click();
    await messages.filter({ hasText: /^(Copied\.|Your browser did not let us copy)/ }).waitFor();
    // ...the whole chapter, again and again, does not.
    for (let attempt = 0; attempt < 5; attempt += 1) {
      await text.evaluate((el) => getSelection()?.selectAllChildren(el));
      await copyButton.click();
      const refused = messages.filter({ hasText: 'This is more than you may still copy' });
      try {
        await refused.waitFor({ timeout: 3_000 });
        break;
      } catch {
        // Still within the allowance: copy more.
      }
    }
    await messages.filter({ hasText: 'This is more than you may still copy' }).waitFor();
    await context.close();
  });
});

/** The text of the search hit marked in the book now (a person sees it highlighted). */
function markedHit(page: Page): Promise<string | null> {
  return page.evaluate(() => {
    const [range] = [...(CSS.highlights.get('reader-hit') ?? [])] as Range[];
    return range && !range.collapsed ? range.toString() : null;
  });
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function searchInBook(page: Page, words: string) {
  const field = page.getByLabel('Words to find');
  if (!(await field.isVisible()))
    await page.getByText('Search in this book', { exact: true }).click();
  await field.fill(words);
  await page.getByRole('button', { name: 'Search', exact: true }).last().click();
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`results? for “${escapeRegExp(words)}”`) })
    .waitFor();
}

/** Turns a PDF to its next page with the keyboard and waits until it shows. */
async function turnPdfPage(page: Page) {
  const before = await page
    .getByRole('status')
    .filter({ hasText: /^Page \d+ of \d+$/ })
    .innerText();
  const next = Number(/^Page (\d+)/.exec(before)![1]) + 1;
  await page.keyboard.press('ArrowRight');
  await page
    .getByRole('status')
    .filter({ hasText: new RegExp(`^Page ${next} of \\d+$`) })
    .waitFor();
}

describe('issue 13: reader defects found from outside', () => {
  it('a PDF phrase across a line end is found, and marked on its page', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/book/read/2');
    await waitForHydration(page);
    await page
      .getByRole('region', { name: 'Page 1' })
      .getByText(/\w{4,}/)
      .first()
      .waitFor();
    // The first page starts with the title and, on the next line, 'by' and the authors.
    const title = (await page.getByRole('heading', { level: 1 }).innerText()).trim();
    const lastWord = title.split(/\s+/).at(-1)!;
    const phrase = `${lastWord} by`;
    await searchInBook(page, phrase);
    await page
      .getByRole('status')
      .filter({ hasText: `1 result for “${phrase}”` })
      .waitFor();
    await page.getByRole('button', { name: /^Page 1\b/ }).click();
    await page.waitForFunction(() => CSS.highlights.get('reader-hit')?.size === 1);
    // The hit is marked across the line end: the title's last word, then 'by'.
    expect(await markedHit(page)).toMatch(new RegExp(`^${escapeRegExp(lastWord)}\\s*by$`, 'i'));
    await context.close();
  });
  it('an EPUB hit stays marked, in view and focused, until the next page turn', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/book/read/1?chapter=1');
    await waitForHydration(page);
    await status(page).waitFor();
    await searchInBook(page, 'Chapter 3');
    await page
      .getByRole('button', { name: /Chapter 3/ })
      .first()
      .click();
    await status(page)
      .filter({ hasText: /Chapter 3: / })
      .waitFor();
    // Said where the hit is, and still marked once the page has settled (its place saved).
    await page
      .getByRole('status')
      .filter({ hasText: /^Result 1 of \d+ for “Chapter 3” is highlighted on this page\.$/ })
      .waitFor();
    await page.waitForResponse((r) => r.url().includes('/api/reading/1/position'));
    expect(await markedHit(page)).toBe('Chapter 3');
    // Keyboard and screen reader users are taken to it.
    expect(
      await page.evaluate(() => {
        const [range] = [...(CSS.highlights.get('reader-hit') ?? [])] as Range[];
        return !!range && !!document.activeElement?.contains(range.startContainer);
      }),
    ).toBe(true);
    const box = await page.getByRole('region', { name: /^Book text/ }).boundingBox();
    const hit = await page.evaluate(() => {
      const [range] = [...(CSS.highlights.get('reader-hit') ?? [])] as Range[];
      const rect = range!.getBoundingClientRect();
      return { x: rect.x, y: rect.y };
    });
    expect(hit.x).toBeGreaterThanOrEqual(box!.x);
    expect(hit.x).toBeLessThan(box!.x + box!.width);
    expect(hit.y).toBeGreaterThanOrEqual(box!.y);
    expect(hit.y).toBeLessThan(box!.y + box!.height);
    // Navigating on clears it.
    await turn(page, 'ArrowRight');
    expect(await markedHit(page)).toBeNull();
    await context.close();
  });
  it('the copy counter beside the book counts a copy as soon as the server allowed it', async () => {
    const context = await newContext(browser);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const page = await context.newPage();
    await logIn(page, await student());
    // Product 3, an EPUB the student owns that allows copying 12.5 % of its text.
    await page.goto('/book/read/3');
    await waitForHydration(page);
    await status(page).waitFor();
    const counter = page
      .getByRole('region', { name: 'Restrictions' })
      .getByText(/^Copy\/Paste: 13% of the text/);
    const [, before] = /\(([\d,]+) of [\d,]+ characters used\)/.exec(await counter.innerText())!;
    await page
      .getByRole('region', { name: /^Book text/ })
      .evaluate((el) => getSelection()?.selectAllChildren(el.querySelector('h2') ?? el));
    await page.getByRole('button', { name: 'Copy selection' }).click();
    const answer = page.getByRole('status').filter({ hasText: /^Copied\. You have used / });
    await answer.waitFor();
    const [, now] = /You have used ([\d,]+) of/.exec(await answer.innerText())!;
    expect(Number(now!.replace(/,/g, ''))).toBeGreaterThan(Number(before!.replace(/,/g, '')));
    await counter.filter({ hasText: `(${now} of ` }).waitFor();
    await context.close();
  });
  it("'Copy selection' without text of the book selected says to select some first", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    await page.goto('/book/read/3');
    await waitForHydration(page);
    await status(page).waitFor();
    const copyButton = page.getByRole('button', { name: 'Copy selection' });
    const hint = page.getByRole('status').filter({ hasText: /^Select text in the book first\.$/ });
    await page.evaluate(() => getSelection()?.removeAllRanges());
    await copyButton.click();
    await hint.waitFor();
    // Text outside the book (its title) is not the book's: the same answer, nothing counted.
    await page
      .getByRole('heading', { level: 1 })
      .evaluate((el) => getSelection()?.selectAllChildren(el));
    const asked = page.waitForRequest((r) => r.url().includes('/copy'), { timeout: 2_000 });
    await copyButton.click();
    await hint.waitFor();
    await expect(asked).rejects.toThrow();
    await context.close();
  });
  it('the reader opens with the focus in the book, for an EPUB and a PDF', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    for (const path of ['/book/read/3', '/book/read/2']) {
      await page.goto(path);
      await waitForHydration(page);
      const text = page.getByRole('region', { name: /^Book text/ });
      await text.waitFor();
      await page.waitForFunction(
        () => document.activeElement?.getAttribute('aria-label')?.startsWith('Book text') ?? false,
      );
      expect(await text.evaluate((el) => el === document.activeElement)).toBe(true);
    }
    await context.close();
  });
  it("an English book on a French page is marked English, for the screen reader's voice", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    const chooseLanguage = async (label: string, next: string) => {
      await page.goto(`/account/language?next=${next}`);
      await page.getByLabel(label).check();
      await Promise.all([
        page.waitForURL((url) => url.pathname === next),
        page.getByRole('button', { name: /^(Continue|Continuer)$/ }).click(),
      ]);
      await waitForHydration(page);
    };
    try {
      await chooseLanguage('Français (Canada)', '/book/read/3');
      expect(await page.locator('html').getAttribute('lang')).toBe('fr-CA');
      const text = page.getByRole('region', { name: /^Texte du livre/ });
      await text.waitFor();
      expect(await text.getAttribute('lang')).toBe('en');
      expect(await text.getAttribute('dir')).toBe('ltr');
      await page.goto('/book/read/2');
      const words = page
        .getByRole('region', { name: 'Page 1' })
        .getByText(/\w{4,}/)
        .first();
      await words.waitFor();
      expect(await words.evaluate((el) => el.closest('[lang]')?.getAttribute('lang'))).toBe('en');
    } finally {
      await chooseLanguage('English', '/library/');
    }
    await context.close();
  });
  /** A page whose window.print only counts (the test reads the printout as print media). */
  async function printingPage() {
    const context = await newContext(browser);
    await context.addInitScript(() => {
      const counted = window as unknown as { printed: number };
      counted.printed = 0;
      window.print = () => {
        counted.printed += 1;
      };
    });
    const page = await context.newPage();
    await logIn(page, await student());
    const printed = () => page.evaluate(() => (window as unknown as { printed: number }).printed);
    return { context, page, printed };
  }

  it('a PDF of 3 pages at 25 % prints 1 page: the one chosen, then none is left', async () => {
    const { context, page, printed } = await printingPage();
    await page.goto('/book/read/2');
    await waitForHydration(page);
    await page
      .getByRole('region', { name: 'Page 1' })
      .getByText(/\w{4,}/)
      .first()
      .waitFor();
    const restrictions = page.getByRole('region', { name: 'Restrictions' });
    await restrictions.getByText('Printing: 25% of the book, 1 page of 3 (1 left)').waitFor();
    await turnPdfPage(page);
    await page.getByText('Print', { exact: true }).click();
    await page.getByText('You are on page 2 of 3. You can print 1 more page.').waitFor();
    expect(await page.getByLabel('From page').inputValue()).toBe('2');
    expect(await page.getByLabel('To page').inputValue()).toBe('2');
    // Pages the book does not have, or the last before the first: said beside the field, in
    // our words, nothing counted or printed.
    await page.getByLabel('To page').fill('9');
    await page.getByRole('button', { name: 'Print these pages' }).click();
    const wrong = page.getByRole('alert').filter({ hasText: 'Enter a page number from 1 to 3.' });
    await wrong.waitFor();
    expect(await page.getByLabel('To page').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByLabel('To page').evaluate((el) => el === document.activeElement)).toBe(
      true,
    );
    await page.getByLabel('To page').fill('1');
    await page.getByRole('button', { name: 'Print these pages' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'The last page to print cannot come before the first (page 2).' })
      .waitFor();
    await page.getByLabel('From page').fill('0');
    await page.getByRole('button', { name: 'Print these pages' }).click();
    await wrong.waitFor();
    expect(await page.getByLabel('From page').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page);
    await page.getByLabel('From page').fill('2');
    expect(await restrictions.getByText('(1 left)').count()).toBe(1);
    expect(await printed()).toBe(0);
    // More than is left: refused, nothing printed.
    await page.getByLabel('To page').fill('3');
    await page.getByRole('button', { name: 'Print these pages' }).click();
    await page
      .getByRole('status')
      .filter({
        hasText:
          'This is more than you may still print: you can print 1 more page of the 1 this book allows.',
      })
      .waitFor();
    expect(await printed()).toBe(0);
    // The page itself.
    await page.getByLabel('To page').fill('2');
    await page.getByRole('button', { name: 'Print these pages' }).click();
    await page
      .getByRole('status')
      .filter({
        hasText: 'Printing page 2. You have used 1 of the 1 page this book lets you print.',
      })
      .waitFor();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    await restrictions.getByText('Printing: 25% of the book, 1 page of 3 (none left)').waitFor();
    await page.getByText('You have printed all the pages this book allows.').waitFor();
    expect(await page.getByRole('button', { name: 'Print these pages' }).isDisabled()).toBe(true);
    await page.emulateMedia({ media: 'print' });
    expect(await page.getByRole('img', { name: /^Page \d+$/ }).count()).toBe(1);
    await page.getByRole('img', { name: 'Page 2' }).waitFor();
    await context.close();
  });

  it('an EPUB that allows 1 page prints its first page of 1,800 characters, not the chapter', async () => {
    const { context, page, printed } = await printingPage();
    // Product 3: 12.5 % of its 6 pages of 1,800 characters; its first chapter has 2.
    await page.goto('/book/read/3?chapter=1');
    await waitForHydration(page);
    await status(page).waitFor();
    const restrictions = page.getByRole('region', { name: 'Restrictions' });
    await restrictions
      .getByText(
        'Printing: 13% of the book, 1 page of 6 (1 left). A page is 1,800 characters of its text.',
      )
      .waitFor();
    const chapter = await page
      .getByRole('region', { name: /^Book text/ })
      .evaluate((el) => el.textContent!.replace(/\s+/g, ' ').trim());
    const heading = await page
      .getByRole('region', { name: /^Book text/ })
      .getByRole('heading', { level: 2 })
      .innerText();
    await page.getByText('Print', { exact: true }).click();
    await page.getByText('You are on page 1 of 6. You can print 1 more page.').waitFor();
    await page.getByRole('button', { name: 'Print these pages' }).click();
    await page
      .getByRole('status')
      .filter({ hasText: /^Printing page 1\. / })
      .waitFor();
    await page.waitForFunction(() => (window as unknown as { printed: number }).printed === 1);
    expect(await printed()).toBe(1);
    await page.emulateMedia({ media: 'print' });
    // On paper: the chapter's first 1,800 characters (to the end of a word), no more.
    const onPaper = page.getByRole('heading', { name: heading });
    await onPaper.waitFor();
    const paper = await onPaper.evaluate(
      (el) => el.closest('[lang]:not(section)')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    );
    expect(chapter.startsWith(paper)).toBe(true);
    expect(paper.length).toBeGreaterThanOrEqual(1_800);
    expect(paper.length).toBeLessThan(1_830);
    // The rest of the chapter is its second page.
    expect(chapter.length - paper.length).toBeGreaterThan(50);
    await context.close();
  });

  it('a book that allows no printing shows no Print, says why, and Ctrl+P says so too', async () => {
    const { context, page, printed } = await printingPage();
    await page.goto('/book/read/1');
    await waitForHydration(page);
    await status(page).waitFor();
    await page
      .getByRole('region', { name: 'Restrictions' })
      .getByText('Printing: not allowed by the publisher of this book.')
      .waitFor();
    expect(await page.getByText('Print', { exact: true }).count()).toBe(0);
    await page.keyboard.press('Control+p');
    await page
      .getByRole('status')
      .filter({ hasText: 'This book does not allow printing.' })
      .waitFor();
    expect(await printed()).toBe(0);
    await context.close();
  });
});

describe('the reader, for anybody else', () => {
  it('another student is forbidden from the book and its files; a visitor logs in first', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const visitor = await page.goto('/book/read/1');
    expect(new URL(page.url()).pathname).toBe('/accounts/login/');
    expect(visitor?.status()).toBe(200);
    expect(decodeURIComponent(page.url())).toContain('next=/book/read/1');
    // Someone in no section who owns nothing (a teaching assistant of the book's section may
    // open it: the entitlement rule, issue 14).
    await logIn(page, await makeUser({ label: 'reader' }));
    const book = await page.goto('/book/read/1');
    expect(book?.status()).toBe(403);
    // The refusal says why (issue 14), under the forbidden page's title.
    await page
      .getByRole('heading', {
        name: "You don't have access to this title. Buy it, redeem an access code, or open it from your course.",
      })
      .waitFor();
    expect(await page.title()).toContain('Forbidden');
    await expectAccessible(page);
    for (const path of ['/file/read/1', '/bookfile/2/download']) {
      const file = await page.request.get(path);
      expect(file.status(), path).toBe(403);
    }
    for (const path of ['/book/read/abc', '/book/read/99999999', '/file/read/x']) {
      const r = await page.request.get(path);
      expect(r.status(), path).toBe(404);
    }
    await context.close();
  });

  it('the owner gets the file itself, private and never stored', async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await student());
    const file = await page.request.get('/file/read/1');
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/epub+zip');
    expect(file.headers()['cache-control']).toBe('private, no-store');
    const guide = await page.request.get('/bookfile/2/download');
    expect(guide.status()).toBe(200);
    expect(guide.headers()['content-disposition']).toMatch(/^attachment; filename=".+\.pdf"/);
    await context.close();
  });
});

describe('section analytics, as the professor', () => {
  it("shows each material with the student's open counted; students may not see it", async () => {
    // A student of bio001 opens its book three times.
    const reader = await newContext(browser);
    const studentPage = await reader.newPage();
    await logIn(studentPage, await student());
    await studentPage.goto('/book/read/1');
    const bookTitle = (await studentPage.getByRole('heading', { level: 1 }).innerText()).trim();
    await studentPage.reload();
    await studentPage.reload();
    await studentPage.getByRole('heading', { level: 1 }).waitFor();
    expect((await studentPage.goto('/courses/analytics/1'))?.status()).toBe(403);
    await reader.close();

    const context = await newContext(browser);
    const page = await context.newPage();
    await logIn(page, await makeUser({ like: 'instructor', label: 'reader' }));
    const response = await page.goto('/courses/analytics/1');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Section Analytics: BIO 101: Section 001' }).waitFor();
    expect(await page.title()).toMatch(/^Section Analytics: BIO 101: Section 001/);
    const row = page.getByRole('row').filter({ hasText: bookTitle }).first();
    const cells = await row.getByRole('cell').allInnerTexts();
    // Access (and through what, issue 38), openers, opens, last opened (the material is the
    // row's header): the student above opened it three times.
    expect(cells[0]).toMatch(/^[1-9]\d* of \d+\n.+: \d+/);
    expect(cells[1]).toMatch(/^[1-9]\d* of \d+$/);
    expect(Number(cells[2])).toBeGreaterThanOrEqual(3);
    expect(cells[3]).not.toBe('Never');
    await expectAccessible(page);
    await context.close();
  });
});
