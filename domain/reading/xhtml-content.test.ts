import { describe, expect, it } from 'vitest';
import { normalizedLength, renderPart } from './xhtml-content.ts';

const options = {
  part: 2,
  resolveLink: (href: string) =>
    href.startsWith('ch1.xhtml') ? { part: 1, fragment: href.split('#')[1] ?? null } : null,
  partHref: ({ part }: { part: number }) => `?chapter=${part + 1}`,
  imageUrl: (src: string) => (src === 'cover.png' ? '/file/read/9/OEBPS/cover.png' : null),
};

const page = (body: string) =>
  `<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>T</title><style>p{color:red}</style><script>alert(1)</script></head><body>${body}</body></html>`;

describe('renderPart (issue 5: EPUB text shown as the page own text, safely)', () => {
  it('keeps the text and its structure; headings move one level down', () => {
    const { html, text } = renderPart(
      page('<section><h1>One &amp; two</h1><p>Hello <em>world</em></p></section>'),
      options,
    );
    expect(html).toBe('<section><h2>One &amp; two</h2><p>Hello <em>world</em></p></section>');
    expect(text).toBe('One & twoHello world');
  });

  it('drops scripts, styles, forms, frames, event handlers and dangerous links; keeps classes renamed', () => {
    const { html } = renderPart(
      page(
        '<p onclick="steal()" style="x" class="c">a<script>alert(2)</script></p>' +
          '<a href="javascript:alert(3)">b</a><iframe src="https://evil.test"></iframe>' +
          '<svg><script>alert(4)</script><text>c</text></svg><form><input value="d"/></form>' +
          '<a href="https://example.org/x" onmouseover="y">e</a>',
      ),
      options,
    );
    expect(html).not.toMatch(/script|onclick|onmouseover|style=|javascript|iframe|input/);
    expect(html).toContain('<svg><text>c</text></svg>');
    // Issue 16: the publisher's class stays, renamed for its scoped stylesheet (book-css.ts).
    expect(html).toContain('<p class="b-c">a</p>');
    expect(html).toContain('<a>b</a>');
    expect(html).toContain(
      '<a href="https://example.org/x" rel="noopener noreferrer external">e</a>',
    );
  });

  it("prefixes ids per part and points the book's links and images at the reader", () => {
    const { html } = renderPart(
      page(
        '<p id="n1" aria-labelledby="h a">x</p><a href="ch1.xhtml#sec">y</a><img src="cover.png" alt="Cover"/><img src="missing.png" alt="Lost"/>',
      ),
      options,
    );
    expect(html).toContain('<p id="p2-n1" aria-labelledby="p2-h p2-a">x</p>');
    expect(html).toContain('<a href="?chapter=2" data-part="1" data-fragment="p1-sec">y</a>');
    expect(html).toContain('<img alt="Cover" src="/file/read/9/OEBPS/cover.png">');
    expect(html).toContain('Lost');
    expect(html).not.toContain('missing.png');
  });

  it('the book landmarks become plain blocks, so the page keeps its own', () => {
    const { html } = renderPart(page('<nav><header>h</header><aside>a</aside></nav>'), options);
    expect(html).toBe('<div><div>h</div><div>a</div></div>');
  });

  it('markup that is not well formed still comes out balanced and escaped', () => {
    const { html } = renderPart(page('<p><em>open <b>more</p>after & < 1 </em>'), options);
    expect(html).toBe('<p><em>open <b>more</b></em></p>after &amp; &lt; 1 ');
  });

  it('issue 13: finds the page-break markers of the printed edition, each with an id and a label', () => {
    const { html, pageBreaks, text } = renderPart(
      page(
        '<p>a</p><span epub:type="pagebreak" id="pg7" title="7"/><p>b</p>' +
          '<div role="doc-pagebreak">viii</div><p>c</p><hr epub:type="pagebreak"/>' +
          '<bogus epub:type="pagebreak" id="x9" aria-label="9"></bogus>',
      ),
      options,
    );
    expect(pageBreaks).toEqual([
      { label: '7', anchor: 'p2-pg7', offset: 1 },
      { label: 'viii', anchor: 'p2--page-1', offset: 2 },
      { label: '', anchor: 'p2--page-2', offset: 7 },
      { label: '9', anchor: 'p2-x9', offset: 7 },
    ]);
    // Issue 16: where each page starts in the part's text.
    expect(text).toBe('abviiic');
    expect(text.slice(pageBreaks[1]!.offset)).toBe('viiic');
    expect(html).toContain('<span id="p2-pg7" title="7"></span>');
    expect(html).toContain('<span id="p2--page-1"></span><div role="doc-pagebreak">viii</div>');
    expect(html).toContain('<span id="p2--page-2"></span><hr>');
    expect(html).toContain('<span id="p2-x9"></span>');
  });

  it('issue 16: MathML is kept for the browser to render, with its alttext; a TeX annotation becomes the alttext', () => {
    const { html, text } = renderPart(
      page(
        '<p>Area <m:math xmlns:m="http://www.w3.org/1998/Math/MathML" display="block" alttext="pi r squared" href="https://evil.test" mathcolor="red">' +
          '<m:mi>π</m:mi><m:msup><m:mi onclick="x()">r</m:mi><m:mn>2</m:mn></m:msup></m:math></p>' +
          '<math><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac>' +
          '<annotation encoding="application/x-tex">\\frac{1}{2}</annotation></semantics></math>' +
          '<math alttext="x"><mtext>a <b>bold</b> word</mtext><annotation-xml encoding="text/html"><p>no</p></annotation-xml><mglyph src="https://evil.test/g.png"/></math>',
      ),
      options,
    );
    expect(html).toContain(
      '<p>Area <math display="block" alttext="pi r squared"><mi>π</mi><msup><mi>r</mi><mn>2</mn></msup></math></p>',
    );
    expect(html).toContain(
      '<math alttext="\\frac{1}{2}"><semantics><mfrac><mn>1</mn><mn>2</mn></mfrac></semantics></math>',
    );
    expect(html).toContain('<math alttext="x"><mtext>a bold word</mtext></math>');
    expect(html).not.toMatch(/evil|mathcolor|onclick|annotation|mglyph|<p>no/);
    // What the reader counts and searches is what the browser shows: no TeX source.
    expect(text).toBe('Area πr212a bold word');
  });

  it('issue 16: inline SVG keeps its drawing, ids and the references to them prefixed per part', () => {
    const { html, text } = renderPart(
      page(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 50" role="img" aria-labelledby="t1">' +
          '<title id="t1">A rising line</title>' +
          '<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs>' +
          '<path d="M0,50 L100,0" style="stroke: #c00; stroke-width: 2; fill: url(#g); behavior: x" fill="none"/>' +
          '<use xlink:href="#p"/><use href="other.svg#p"/>' +
          '<text x="5" y="45" font-family="\'Noto Serif\', serif">Growth</text>' +
          '<image href="cover.png" width="10" height="10"/><image href="https://evil.test/i.png"/>' +
          '<a xlink:href="javascript:alert(1)"><circle r="3" onload="alert(2)"/></a>' +
          '<foreignObject><p>hidden</p></foreignObject><style>path{}</style><script>alert(3)</script>' +
          '<animate attributeName="href" to="javascript:alert(4)"/>' +
          '<rect width="5" height="5" fill="url(https://evil.test/x)" mask="url(#m)"/></svg>',
      ),
      options,
    );
    expect(html).toContain(
      '<svg viewBox="0 0 100 50" role="img" aria-labelledby="p2-t1"><title id="p2-t1">A rising line</title>',
    );
    expect(html).toContain(
      '<linearGradient id="p2-g"><stop offset="0" stop-color="#fff"></stop></linearGradient>',
    );
    // The style attribute's paint becomes attributes; what an attribute already says wins.
    expect(html).toContain(
      '<path d="M0,50 L100,0" fill="none" stroke="#c00" stroke-width="2"></path>',
    );
    expect(html).toContain('<use href="#p2-p"></use>');
    expect(html).toContain('<text x="5" y="45" font-family="\'Noto Serif\', serif">Growth</text>');
    expect(html).toContain(
      '<image href="/file/read/9/OEBPS/cover.png" width="10" height="10"></image>',
    );
    expect(html).toContain('<circle r="3"></circle>');
    expect(html).toContain('<rect width="5" height="5" mask="url(#p2-m)"></rect>');
    expect(html).not.toMatch(
      /evil|javascript|onload|foreignObject|hidden|<style|script|animate|other\.svg|<a/,
    );
    expect(text).toBe('A rising lineGrowth');
  });

  it('issue 16: EPUB 3 notes keep their meaning: references, the notes themselves, the links back', () => {
    const { html } = renderPart(
      page(
        '<p>Cells<a epub:type="noteref" href="#fn1">1</a> and <a epub:type="noteref" role="doc-glossref" href="#g">x</a>.</p>' +
          '<aside epub:type="footnote" id="fn1"><p><a epub:type="backlink" href="#r1">↩</a> First described in 1665.</p></aside>' +
          '<ol><li epub:type="endnote" id="en1">An endnote.</li></ol><div role="doc-footnote" id="fn2">Two.</div>' +
          '<figure aria-details="d1"><img src="cover.png" alt="A cell"/></figure><details id="d1">Long description</details>',
      ),
      {
        ...options,
        resolveLink: (href: string) =>
          href.startsWith('#') ? { part: 2, fragment: href.slice(1) } : null,
      },
    );
    const inPart = (id: string) => `href="?chapter=3" data-part="2" data-fragment="p2-${id}"`;
    expect(html).toContain(`<a role="doc-noteref" ${inPart('fn1')}>1</a>`);
    // A role the book gives wins over its type.
    expect(html).toContain(`<a role="doc-glossref" ${inPart('g')}>x</a>`);
    expect(html).toContain(
      `<div id="p2-fn1" data-note=""><p><a role="doc-backlink" ${inPart('r1')}>↩</a> First described in 1665.</p></div>`,
    );
    // An endnote stays a list item (a role would break the list), marked as a note.
    expect(html).toContain('<li id="p2-en1" data-note="">An endnote.</li>');
    expect(html).toContain('<div role="doc-footnote" id="p2-fn2" data-note="">Two.</div>');
    expect(html).toContain('<figure aria-details="p2-d1">');
  });

  it('DRM counts characters with white space runs as one space', () => {
    expect(normalizedLength('  a \n\n b  ')).toBe(3);
  });
});
