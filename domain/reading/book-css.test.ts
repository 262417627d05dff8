import { describe, expect, it } from 'vitest';
import { BOOK_SCOPE, bookClass } from './book-classes.ts';
import { type BookResources, bookStylesheet } from './book-css.ts';

// Issue 16, faithful pages: "the publisher's CSS applied within safe limits (scoped to the
// book's area; no scripts, no remote resources, nothing that can cover or restyle our
// controls), with the reader's own settings winning where the reader changes them".

const sheet = (css: string) => bookStylesheet([css]);

describe('the publisher’s stylesheet, as the reader applies it', () => {
  it('keeps the book’s typography, scoped to the book’s area, its classes renamed, in the book layer', () => {
    const out = sheet(
      'p { text-indent: 1.5em; margin: 0 } .chapter-title, h1.big { font-weight: bold; text-align: center }',
    );
    expect(out.startsWith('@layer book {')).toBe(true);
    expect(out).toContain(`.${BOOK_SCOPE} p { text-indent: 1.5em; margin: 0 }`);
    // The book's h1 is the reader's h2 (the page's h1 is the book's title): its rules follow it.
    expect(out).toContain(`.${BOOK_SCOPE} .b-chapter-title, .${BOOK_SCOPE} h2.b-big`);
    expect(bookClass('chapter-title')).toBe('b-chapter-title');
    expect(bookClass('1bad')).toBeNull();
  });

  it('html, body and :root become the book’s area, and may set only its type and colours', () => {
    const out = sheet(
      'body { font-family: "Minion Pro", serif; margin: 10%; column-count: 2 } html body p { color: #222 }',
    );
    expect(out).toContain(`.${BOOK_SCOPE} { font-family: "Minion Pro", serif }`);
    expect(out).not.toContain('10%');
    expect(out).not.toContain('column-count');
    expect(out).toContain(`.${BOOK_SCOPE} p { color: #222 }`);
  });

  it('nothing positions, layers, transforms, animates or loads anything', () => {
    const out = sheet(`
      @import url("https://evil.example/x.css");
      @font-face { font-family: X; src: url(x.woff) }
      .a { position: fixed; top: 0; z-index: 9999; transform: scale(3); animation: spin 1s; color: red }
      .b { background: url(javascript:alert(1)); background-image: url(https://t.example/p.png); cursor: pointer }
      .c { margin-top: -400px; width: expression(alert(1)) }
      .d { display: grid; content: url(x.png) }
      @keyframes spin { from { color: red } }
      @page { margin: 0 }
    `);
    for (const gone of [
      '@import',
      '@font-face',
      'position',
      'z-index',
      'transform',
      'animation',
      'url(',
      'expression',
      '-400px',
      'cursor',
      'grid',
      '@keyframes',
      '@page',
    ]) {
      expect(out, gone).not.toContain(gone);
    }
    expect(out).toContain(`.${BOOK_SCOPE} .b-a { color: red }`);
  });

  it('no rule can reach outside the area: ids, namespaces and unknown pseudo-classes are dropped with their rule', () => {
    const out = sheet(
      '#nav { color: red } epub|switch { color: red } p:has(a) { color: red } a:hover { color: blue } p:first-child::first-letter { font-size: 2em }',
    );
    expect(out).not.toContain('#nav');
    expect(out).not.toContain(':has');
    expect(out).not.toContain('hover');
    expect(out).toContain(`.${BOOK_SCOPE} p:first-child::first-letter { font-size: 2em }`);
  });

  it('the reader’s settings win: !important is removed, absolute type sizes scale with the reader’s size', () => {
    const out = sheet(
      'p { font-size: 12pt !important; line-height: 1.2 !important } h2 { font-size: 24px } small { font: italic 8px/10px serif }',
    );
    expect(out).not.toContain('important');
    expect(out).toContain('font-size: 1em');
    expect(out).toContain('font-size: 1.5em');
    expect(out).toContain('font: italic 0.5em/0.625em serif');
  });

  it('a media query keeps its sanitised rules; CSS that does not parse is left out; nothing can close the style element', () => {
    const out = bookStylesheet([
      '@media (min-width: 600px) { .wide { float: left; position: absolute } }',
      'p { color: red',
      'p::before { content: "</style><script>alert(1)</script>" } p::after { content: "§ " }',
    ]);
    expect(out).toContain(`@media (min-width: 600px) { .${BOOK_SCOPE} .b-wide { float: left } }`);
    expect(out).not.toContain('</style');
    expect(out).not.toContain('<script');
    expect(out).toContain('content: "§ "');
  });

  it('a line break in a string cannot end it: the sheet carries none (review, session 20)', () => {
    // PostCSS keeps the raw break inside the string; a browser ends the string there and would
    // read `}}body *{display:none !important}` as a rule outside the book's area and layer.
    for (const breakChar of ['\n', '\r', '\f']) {
      const out = sheet(
        `p { font-family: "a${breakChar}}}body *{display:none !important}x{"; color: red } q { quotes: "«${breakChar}}" "»" }`,
      );
      const inside = out.slice('@layer book {\n'.length, -'\n}\n'.length);
      expect(inside).not.toMatch(/[\n\r\f]/);
      expect(out.startsWith('@layer book {\n')).toBe(true);
    }
  });

  it('a book without stylesheets, or with nothing safe in them, adds nothing', () => {
    expect(bookStylesheet([])).toBe('');
    expect(sheet('#x { position: fixed }')).toBe('');
  });

  describe('its fonts and pictures: only the ones the book carries, from our origin', () => {
    // The book's files, as EpubPublication.resourcePath would find them from the sheet's place.
    const carried = new Map([
      ['OEBPS/fonts/Minion.woff2', 'font'],
      ['OEBPS/fonts/Minion-Bold.ttf', 'font'],
      ['OEBPS/images/rule.png', 'image'],
    ]);
    const resources: BookResources = (sheetPath, href, kind) => {
      if (/^[a-z]+:|^\//i.test(href)) return null;
      const base = sheetPath.split('/').slice(0, -1);
      for (const step of href.split('/')) {
        if (step === '..') base.pop();
        else base.push(step);
      }
      const found = base.join('/');
      return carried.get(found) === kind ? `/file/read/7/${found}?coursemember_id=3` : null;
    };
    const styled = (css: string) =>
      bookStylesheet([{ path: 'OEBPS/css/book.css', text: css }], { resources });

    it('keeps an @font-face naming the book’s own font, renamed so it can never replace ours, and its uses renamed with it', () => {
      const out = styled(`
        @font-face { font-family: "Minion Pro"; font-weight: bold; src: local("Minion Pro Bold"), url(../fonts/Minion-Bold.ttf) format("truetype") }
        @font-face { font-family: 'Minion Pro'; src: url("../fonts/Minion.woff2") format('woff2'), url(../fonts/Minion.woff) format('woff') }
        body { font-family: "Minion Pro", Georgia, serif }
        h1 { font: bold 24px/1.2 Minion Pro, serif }
        .caption { font-family: Georgia, serif }
      `);
      expect(out).toContain(
        '@font-face { font-family: "b-Minion Pro"; font-weight: bold; src: url("/file/read/7/OEBPS/fonts/Minion-Bold.ttf?coursemember_id=3") format("truetype"); font-display: swap }',
      );
      // The file the book does not have is left out; the one it has stays.
      expect(out).toContain(
        'src: url("/file/read/7/OEBPS/fonts/Minion.woff2?coursemember_id=3") format("woff2");',
      );
      expect(out).not.toContain('Minion.woff"');
      expect(out).not.toContain('local(');
      expect(out).toContain(`.${BOOK_SCOPE} { font-family: "b-Minion Pro", Georgia, serif }`);
      expect(out).toContain(`.${BOOK_SCOPE} h2 { font: bold 1.5em/1.2 "b-Minion Pro", serif }`);
      expect(out).toContain(`.${BOOK_SCOPE} .b-caption { font-family: Georgia, serif }`);
    });

    it('drops an @font-face whose fonts are remote, missing or local, and leaves that family’s uses as written', () => {
      const out = styled(`
        @font-face { font-family: Remote; src: url(https://fonts.example/r.woff2) }
        @font-face { font-family: Missing; src: url(../fonts/none.woff2) }
        @font-face { font-family: Installed; src: local(Arial) }
        @font-face { font-family: Picture; src: url(../images/rule.png) }
        @font-face { src: url(../fonts/Minion.woff2) }
        p { font-family: Remote, Missing, serif }
      `);
      expect(out).not.toContain('@font-face');
      expect(out).toContain(`.${BOOK_SCOPE} p { font-family: Remote, Missing, serif }`);
    });

    it('keeps a background or list picture the book carries, and nothing else that loads', () => {
      const out = styled(`
        .rule { background: #fff url(../images/rule.png) no-repeat center; background-size: contain }
        ul.ticks { list-style-image: url('../images/rule.png') }
        .remote { background-image: url(https://t.example/p.png); color: red }
        .escape { background-image: url(../../../etc/passwd) }
        .set { background-image: image-set("../images/rule.png" 1x) }
        .content { content: url(../images/rule.png) }
        .font-as-picture { background-image: url(../fonts/Minion.woff2) }
      `);
      expect(out).toContain(
        `.${BOOK_SCOPE} .b-rule { background: #fff url("/file/read/7/OEBPS/images/rule.png?coursemember_id=3") no-repeat center; background-size: contain }`,
      );
      expect(out).toContain(
        `.${BOOK_SCOPE} ul.b-ticks { list-style-image: url("/file/read/7/OEBPS/images/rule.png?coursemember_id=3") }`,
      );
      expect(out).toContain(`.${BOOK_SCOPE} .b-remote { color: red }`);
      for (const gone of ['t.example', 'passwd', 'image-set', 'b-set', 'b-content', 'Minion']) {
        expect(out, gone).not.toContain(gone);
      }
    });

    it('a stylesheet read without its place in the book names no file', () => {
      const out = bookStylesheet(
        ['@font-face { font-family: A; src: url(a.woff2) } .x { background-image: url(x.png) }'],
        { resources },
      );
      expect(out).toBe('');
    });
  });
});
