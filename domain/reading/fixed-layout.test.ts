import { describe, expect, it } from 'vitest';
import { buildEpub } from '#db/seed/content/epub.ts';
import { buildFixedLayoutEpub } from '#db/seed/content/fixed-layout-epub.ts';
import { bookStylesheet, fixedInlineStyle } from './book-css.ts';
import { openEpub } from './epub-publication.ts';
import { fixedSpreads, type SpreadPage, spreadOf } from './fixed-spreads.ts';
import { FIXED_PAGE_FALLBACK, renderPart, viewportSize } from './xhtml-content.ts';

// Issue 16, faithful pages: "Fixed-layout EPUB (rendition:layout pre-paginated): each page
// shown whole at the size of the viewport, one or two pages (spreads) per screen, zoom; no
// empty pages."
const pictureBook = buildFixedLayoutEpub({
  title: 'Blue Fox',
  author: 'A. Painter',
  language: 'en',
  identifier: 'urn:test:fox',
  pages: [
    { text: '', alt: 'A blue fox on a hill', colour: '#3b82f6' },
    { text: 'The fox wakes up.', alt: 'The fox yawns', colour: '#f59e0b' },
    { text: 'The fox runs.', alt: 'The fox running', colour: '#10b981' },
  ],
});
const urls = { partHref: () => '#', imageUrl: (p: string) => `/img/${p}` };

describe('fixed-layout EPUB (issue 16)', () => {
  it('reads the layout, the spread and each page’s side from the package', () => {
    const epub = openEpub(pictureBook);
    expect(epub.layout).toBe('pre-paginated');
    expect(epub.spread).toBe('landscape');
    expect(epub.parts.map((p) => [p.fixed, p.side])).toEqual([
      [true, 'center'],
      [true, 'left'],
      [true, 'right'],
    ]);
    // A reflowable book has no fixed page.
    const plain = openEpub(
      buildEpub({
        title: 'T',
        author: 'A',
        language: 'en',
        identifier: 'urn:t',
        chapters: [{ title: 'One', paragraphs: ['x'] }],
      }),
    );
    expect([plain.layout, plain.parts[0]!.fixed, plain.parts[0]!.side]).toEqual([
      'reflowable',
      false,
      null,
    ]);
  });

  it('renders a page at its viewport size, with its pictures, words and placed boxes', () => {
    const page = openEpub(pictureBook).renderPart(1, urls);
    expect(page.page).toEqual({ width: 600, height: 800 });
    expect(page.html).toContain(
      '<div class="reader-page-body b-page" style="background-color: #fffdf6">',
    );
    expect(page.html).toContain(
      '<img class="b-picture" alt="The fox yawns" src="/img/OEBPS/images/picture-001.svg">',
    );
    // An inline style keeps its placing; "fixed" is placed against the page, as absolute.
    expect(page.html).toContain('style="font-weight: bold; position: absolute"');
    expect(page.text).toContain('The fox wakes up.');
    expect(page.html.endsWith('</div>')).toBe(true);
  });

  it('a page drawn in SVG by itself (an SVG spine item) is a page: whole, at its drawing’s size, its words text', () => {
    const withBack = openEpub(
      buildFixedLayoutEpub({
        title: 'Blue Fox',
        author: 'A. Painter',
        language: 'en',
        identifier: 'urn:test:fox',
        pages: [{ text: '', alt: 'A blue fox on a hill', colour: '#3b82f6' }],
        backCover: { text: 'The End', alt: 'The fox asleep', colour: '#1e3a8a' },
      }),
    );
    expect(withBack.parts.map((p) => [p.path, p.fixed, p.side])).toEqual([
      ['OEBPS/page-000.xhtml', true, 'center'],
      ['OEBPS/back-cover.svg', true, 'left'],
    ]);
    expect(withBack.toc.map((entry) => [entry.label, entry.part])).toEqual([
      ['Cover', 0],
      ['Back cover', 1],
    ]);
    const back = withBack.renderPart(1, urls);
    expect(back.page).toEqual({ width: 600, height: 800 });
    expect(back.html.startsWith('<div class="reader-page-body">')).toBe(true);
    expect(back.html.endsWith('</div>')).toBe(true);
    expect(back.html).toContain('<g role="img" aria-label="The fox asleep">');
    expect(back.text).toContain('The End');
    // A drawing with a size and no viewBox is a page of that size.
    const fixed = { part: 0, resolveLink: () => null, ...urls, fixed: true };
    expect(
      renderPart(
        '<svg xmlns="http://www.w3.org/2000/svg" width="500px" height="700"><rect/></svg>',
        fixed,
      ).page,
    ).toEqual({ width: 500, height: 700 });
  });

  it('takes the size from a drawing’s viewBox, else a fallback; reflowable parts have none', () => {
    const fixed = { part: 0, resolveLink: () => null, ...urls, fixed: true };
    const svgPage =
      '<html><head></head><body><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1024 768"><rect width="5" height="5"/></svg></body></html>';
    expect(renderPart(svgPage, fixed).page).toEqual({ width: 1024, height: 768 });
    expect(renderPart('<html><body><p>x</p></body></html>', fixed).page).toEqual(
      FIXED_PAGE_FALLBACK,
    );
    expect(
      renderPart('<html><body><p style="position: absolute">x</p></body></html>', {
        ...fixed,
        fixed: false,
        inlineStyle: fixedInlineStyle,
      }),
    ).toMatchObject({ page: null, html: '<p>x</p>' });
    expect(viewportSize('width=1200,height=1600')).toEqual({ width: 1200, height: 1600 });
    expect(viewportSize('width=device-width, initial-scale=1')).toBeNull();
    expect(viewportSize('width=0, height=10')).toBeNull();
  });

  it('keeps a fixed page’s placing within the page, and nothing that loads or escapes it', () => {
    const css = bookStylesheet(
      [
        `body { width: 600px; height: 800px; position: fixed; color: red }
         .words { position: absolute; top: 590px; font-size: 28px; z-index: 3; transform: rotate(2deg) }
         .sticker { position: sticky; background-image: url(https://evil.example/x.png); z-index: 99999999 }
         #id { position: absolute }`,
      ],
      { fixed: true },
    );
    expect(css).toContain('.reader-page-body {');
    expect(css).toContain('width: 600px');
    // The page's own box is placed by the reader, not by the book.
    expect(css).not.toMatch(/\.reader-page-body \{[^}]*position/);
    expect(css).toContain(
      '.reader-page-body .b-words { position: absolute; top: 590px; font-size: 28px; z-index: 3; transform: rotate(2deg) }',
    );
    expect(css).toContain('.reader-page-body .b-sticker { position: absolute }');
    expect(css).not.toContain('url(');
    expect(css).not.toContain('99999999');
    expect(css).not.toContain('#id');
    // The same sheet for reflowable text: scoped to the book's area, nothing placed, em sizes.
    const flowing = bookStylesheet(['.words { position: absolute; font-size: 28px }']);
    expect(flowing).toContain('.reader-book .b-words { font-size: 1.75em }');
  });

  it('reads an inline style alone: no rule can be smuggled out of it', () => {
    expect(fixedInlineStyle('left: 10px; top: 20px; color: #123')).toBe(
      'left: 10px; top: 20px; color: #123',
    );
    expect(fixedInlineStyle('color: red } .reader-controls { display: none')).toBeNull();
    expect(fixedInlineStyle('background-image: url(/x.png); width: 10px')).toBe('width: 10px');
    expect(fixedInlineStyle('nonsense')).toBeNull();
  });
});

describe('fixed-layout spreads (issue 16: one or two pages per screen)', () => {
  const page = (side: SpreadPage['side'] = null): SpreadPage => ({ fixed: true, side });
  it('shows the cover alone, then each left page with the right page after it', () => {
    const book = openEpub(pictureBook);
    expect(fixedSpreads(book.parts)).toEqual([[0], [1, 2]]);
    expect(spreadOf([[0], [1, 2]], 2)).toEqual([1, 2]);
  });

  it('gives pages that ask nothing the side of their place: a book opens on a right page', () => {
    expect(fixedSpreads([page(), page(), page(), page()])).toEqual([[0], [1, 2], [3]]);
    // Right to left, the first page is a left-hand page and a right page comes first.
    expect(fixedSpreads([page(), page(), page()], true)).toEqual([[0], [1, 2]]);
  });

  it('never pairs across the middle, a reflowable part or two pages of the same side', () => {
    expect(fixedSpreads([page('left'), page('center'), page('left'), page('left')])).toEqual([
      [0],
      [1],
      [2],
      [3],
    ]);
    expect(
      fixedSpreads([page('left'), { fixed: false, side: null }, page('left'), page('right')]),
    ).toEqual([[0], [1], [2, 3]]);
  });
});
