import { describe, expect, it } from 'vitest';
import { BOOK_SCOPE, bookClass } from './book-classes.ts';
import { bookStylesheet } from './book-css.ts';

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
    expect(out).toContain(`.${BOOK_SCOPE} .b-chapter-title, .${BOOK_SCOPE} h1.b-big`);
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

  it('a book without stylesheets, or with nothing safe in them, adds nothing', () => {
    expect(bookStylesheet([])).toBe('');
    expect(sheet('#x { position: fixed }')).toBe('');
  });
});
