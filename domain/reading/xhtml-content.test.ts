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

  it('drops scripts, styles, forms, frames, event handlers and dangerous links', () => {
    const { html } = renderPart(
      page(
        '<p onclick="steal()" style="x" class="c">a<script>alert(2)</script></p>' +
          '<a href="javascript:alert(3)">b</a><iframe src="https://evil.test"></iframe>' +
          '<svg><script>alert(4)</script><text>c</text></svg><form><input value="d"/></form>' +
          '<a href="https://example.org/x" onmouseover="y">e</a>',
      ),
      options,
    );
    expect(html).not.toMatch(
      /script|onclick|onmouseover|style=|class=|javascript|iframe|svg|input/,
    );
    expect(html).toContain('<p>a</p>');
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
    const { html, pageBreaks } = renderPart(
      page(
        '<p>a</p><span epub:type="pagebreak" id="pg7" title="7"/><p>b</p>' +
          '<div role="doc-pagebreak">viii</div><p>c</p><hr epub:type="pagebreak"/>' +
          '<bogus epub:type="pagebreak" id="x9" aria-label="9"></bogus>',
      ),
      options,
    );
    expect(pageBreaks).toEqual([
      { label: '7', anchor: 'p2-pg7' },
      { label: 'viii', anchor: 'p2--page-1' },
      { label: '', anchor: 'p2--page-2' },
      { label: '9', anchor: 'p2-x9' },
    ]);
    expect(html).toContain('<span id="p2-pg7" title="7"></span>');
    expect(html).toContain('<span id="p2--page-1"></span><div role="doc-pagebreak">viii</div>');
    expect(html).toContain('<span id="p2--page-2"></span><hr>');
    expect(html).toContain('<span id="p2-x9"></span>');
  });

  it('DRM counts characters with white space runs as one space', () => {
    expect(normalizedLength('  a \n\n b  ')).toBe(3);
  });
});
