import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible, launchBrowser, logIn, newContext, waitForHydration } from './browser.ts';
import { feedEbook, makeOwnership, makeUser } from './fixtures.ts';

// Issue 16, faithful pages: what a textbook carries besides prose. The demo publisher feed's
// e-books (db/seed/publisher-feed.ts) have a "Worked example" chapter with a MathML formula
// (and its TeX), an SVG chart with a title, and an EPUB 3 footnote.

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** A new student who owns a new feed e-book, in its reader at `query`, on a desktop. */
async function readerOfFeedEbook(label: string, query: string) {
  const user = await makeUser({ like: 'student', label });
  const productId = await feedEbook();
  await makeOwnership(user.email, productId);
  const context = await newContext(browser);
  const page = await context.newPage();
  await page.setViewportSize({ width: 1100, height: 800 });
  await logIn(page, user);
  expect((await page.goto(`/book/read/${productId}${query}`))?.status()).toBe(200);
  await waitForHydration(page);
  return { context, page, productId };
}

describe('a textbook chapter in the reader', () => {
  it('keeps the book’s stylesheet through page turns: written once, never again', async () => {
    // A stylesheet written again is a new set of rules and fonts: the whole page was laid out
    // again at every turn (17,270 objects, 140–310 ms with a thousand notes, bench/reader-open.ts).
    const { context, page } = await readerOfFeedEbook('reader-pages-turns', '');
    const status = page.locator('output.reader__status');
    await status.filter({ hasText: /^Page \d+ of \d+/ }).waitFor();
    const bookStyle = page.locator('.reader__page > style');
    await bookStyle.evaluate((style) => {
      const watch = { writes: 0, style };
      (window as unknown as { bookStyleWatch: typeof watch }).bookStyleWatch = watch;
      new MutationObserver((records) => {
        watch.writes += records.length;
      }).observe(style, { childList: true, characterData: true, subtree: true });
    });
    await page.locator('.reader__page .reader-text').focus();
    // At this size each of the book's three chapters is one page: two turns reach the last.
    // (Waiting for the chapter, not for any change: "Loading…" shows between chapters only
    // when the next one was not fetched ahead yet, so a change may be that or the page.)
    for (const chapter of ['Worked example', 'Further reading']) {
      await page.keyboard.press('ArrowRight');
      await status.filter({ hasText: new RegExp(`^Page 1 of \\d+, ${chapter}`) }).waitFor();
    }
    expect(
      await page.evaluate(() => {
        const { bookStyleWatch } = window as unknown as {
          bookStyleWatch: { writes: number; style: Element };
        };
        return { writes: bookStyleWatch.writes, kept: bookStyleWatch.style.isConnected };
      }),
    ).toEqual({ writes: 0, kept: true });
    await context.close();
  });

  it('turns into the next chapter without waiting for the network: the chapters beside are fetched ahead', async () => {
    const { context, page, productId } = await readerOfFeedEbook('reader-pages-ahead', '');
    const status = page.locator('output.reader__status');
    await status.filter({ hasText: /^Page 1 of \d+, Introduction/ }).waitFor();
    // The next chapter comes while the reader reads the first.
    const partUrl = `/api/reading/${productId}/parts/1`;
    await expect
      .poll(() =>
        page.evaluate(
          (url) =>
            performance
              .getEntriesByType('resource')
              .some((entry) => new URL(entry.name).pathname === url),
          partUrl,
        ),
      )
      .toBe(true);
    const asked: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.includes('/parts/')) asked.push(request.url());
    });
    await page.locator('.reader__page .reader-text').focus();
    for (let turn = 0; turn < 30; turn += 1) {
      if (/Worked example/.test((await status.textContent()) ?? '')) break;
      const before = await status.textContent();
      await page.keyboard.press('ArrowRight');
      await expect.poll(() => status.textContent()).not.toBe(before);
    }
    expect(await status.textContent()).toMatch(/Worked example/);
    await page
      .locator('.reader__page .reader-book')
      .getByRole('heading', { name: 'Worked example' })
      .waitFor();
    // Turning into it asked the server for nothing: it was there already.
    expect(asked.filter((url) => new URL(url).pathname === partUrl)).toEqual([]);
    await context.close();
  });

  it('shows its formula and chart as the publisher made them, opens its footnote as a pop-up by keyboard, and goes to a printed page', async () => {
    const { context, page, productId } = await readerOfFeedEbook('reader-pages', '?chapter=2');
    // Scrolling, so the whole chapter is laid out in view.
    await page.getByText('Display settings', { exact: true }).click();
    await page.getByRole('radio', { name: 'Scrolling' }).check();

    // The formula: real MathML, drawn by the browser, with its TeX for screen readers.
    const math = page.locator('.reader__page .reader-text math');
    await math.waitFor();
    expect(await math.evaluate((el) => el.namespaceURI)).toBe('http://www.w3.org/1998/Math/MathML');
    expect(await math.getAttribute('alttext')).toBe('P_n = P \\cdot 2^n');
    expect(await math.locator('msup').count()).toBe(1);
    expect((await math.boundingBox())?.width).toBeGreaterThan(30);
    expect(await math.textContent()).not.toContain('cdot');

    // The chart: an SVG image named by its title, its line in the publisher's colour.
    const chart = page.getByRole('img', { name: 'Doubling: 1, 2, 4, 8 over four periods' });
    expect(await chart.isVisible()).toBe(true);
    expect(await chart.evaluate((el) => el.namespaceURI)).toBe('http://www.w3.org/2000/svg');
    expect(await chart.locator('polyline').evaluate((el) => getComputedStyle(el).stroke)).toBe(
      'rgb(29, 78, 137)',
    );
    expect(await page.getByText('Figure 1. Doubling over four periods.').isVisible()).toBe(true);

    // The publisher's styling, scoped to the book: its worked-example box, drawn in its colours,
    // and nothing of the book's stylesheet reaches the page around it.
    const box = page.locator('.reader__page .reader-book .b-worked-example');
    const boxStyle = () =>
      box.evaluate((el) => {
        const style = getComputedStyle(el);
        return { width: style.borderLeftWidth, border: style.borderLeftColor, color: style.color };
      });
    expect(await boxStyle()).toEqual({
      width: '4px',
      border: 'rgb(29, 78, 137)',
      color: 'rgb(26, 42, 58)',
    });
    expect(await page.locator('.b-worked-example').count()).toBe(1);
    const rules = await page.evaluate(() => {
      const sheet = [...document.styleSheets].find((one) =>
        [...one.cssRules].some((rule) => rule instanceof CSSLayerBlockRule && rule.name === 'book'),
      );
      const layer = [...(sheet?.cssRules ?? [])][0] as CSSLayerBlockRule | undefined;
      return [...(layer?.cssRules ?? [])].map((rule) =>
        rule instanceof CSSFontFaceRule
          ? { kind: 'face', text: rule.style.getPropertyValue('font-family') }
          : { kind: 'rule', text: (rule as CSSStyleRule).selectorText ?? '' },
      );
    });
    const selectors = rules.filter((rule) => rule.kind === 'rule').map((rule) => rule.text);
    expect(selectors.length).toBeGreaterThan(3);
    for (const selector of selectors) {
      for (const one of selector.split(',')) expect(one.trim()).toMatch(/^\.reader-book\b/);
    }
    // Its one font face goes by the book's own name: it can never replace a font of ours.
    expect(rules.filter((rule) => rule.kind === 'face').map((rule) => rule.text)).toEqual([
      '"b-Liberation Sans"',
    ]);

    // The book's own font on its headings: the copy embedded in the book (obfuscated there, as
    // publishers ship fonts), loaded from our origin, not one installed on this machine.
    const heading = page.locator('.reader__page .reader-book h2').first();
    expect(await heading.evaluate((el) => getComputedStyle(el).fontFamily)).toBe(
      '"b-Liberation Sans", sans-serif',
    );
    await expect
      .poll(() =>
        page.evaluate(() =>
          [...document.fonts]
            .filter((face) => face.family.replaceAll('"', '') === 'b-Liberation Sans')
            .map((face) => face.status),
        ),
      )
      .toEqual(['loaded']);
    // Its graph paper behind the worked example: the book's picture, loaded from our origin.
    const paper = await box.evaluate((el) => getComputedStyle(el).backgroundImage);
    const paperUrl = /^url\("(.+)"\)$/.exec(paper)?.[1] ?? '';
    expect(new URL(paperUrl).pathname).toMatch(
      /^\/file\/read\/\d+\/OEBPS\/images\/graph-paper\.svg$/,
    );
    expect(new URL(paperUrl).origin).toBe(new URL(page.url()).origin);
    await expect
      .poll(() => page.evaluate((url) => performance.getEntriesByName(url).length, paperUrl))
      .toBe(1);
    // The reader's dark theme wins over the book's colours: its text is readable.
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(boxStyle).toEqual({
      width: '4px',
      border: 'rgb(230, 225, 216)',
      color: 'rgb(230, 225, 216)',
    });
    // The book's chart, drawn for paper in dark grey and blue, keeps its white ground.
    expect(await chart.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(
      'rgb(255, 255, 255)',
    );
    await expectAccessible(page);
    await page.getByRole('radio', { name: 'Light' }).check();

    // The footnote: its reference opens it over the text, the focus goes in and comes back.
    const reference = page.locator('.reader__page a[role="doc-noteref"]');
    await reference.focus();
    await page.keyboard.press('Enter');
    const note = page.getByRole('dialog', { name: 'Note' });
    await note.waitFor();
    expect(await note.innerText()).toContain(
      'Compound interest tables were printed as early as 1613.',
    );
    expect(await note.locator('a[role="doc-backlink"]').count()).toBe(0);
    expect(await page.evaluate(() => !!document.activeElement?.closest('dialog'))).toBe(true);
    await expectAccessible(page);
    await page.keyboard.press('Escape');
    await note.waitFor({ state: 'hidden' });
    expect(await reference.evaluate((el) => el === document.activeElement)).toBe(true);
    // Close by its button too, after a click.
    await reference.click();
    await note.waitFor();
    await note.getByRole('button', { name: 'Close note' }).click();
    await note.waitFor({ state: 'hidden' });
    // Still in the same chapter: a note does not move the reader.
    expect(page.url()).toContain(`/book/read/${productId}`);
    await expectAccessible(page);

    // Go to a printed page: one the book does not have is refused with its range, then page 13.
    await page.getByText('Go to page', { exact: true }).click();
    const field = page.getByLabel('Page number');
    await field.fill('99');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: 'This book has no page 99.' });
    await refusal.waitFor();
    expect(await refusal.innerText()).toBe(
      'This book has no page 99. Its pages are numbered 12 to 13.',
    );
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('13');
    await field.press('Enter');
    await page.getByText('Page 13 is shown.').waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: /\(printed page 13\)$/ })
      .waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'no page' }).count()).toBe(0);
    await expectAccessible(page);

    // The introduction comes before the printed edition's first numbered page (12): no
    // printed page is claimed there.
    await page.getByText('Table of contents', { exact: true }).click();
    await page.getByRole('link', { name: 'Introduction' }).click();
    const status = page.locator('.reader__status');
    await expect.poll(() => status.textContent()).toMatch(/^Page 1 of \d+, Introduction$/);
    await context.close();
  });
});
