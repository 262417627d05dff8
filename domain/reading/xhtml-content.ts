// Turns one EPUB content document (XHTML) into HTML the reader page can show as its own text:
// an allow-list of elements and attributes rebuilt from tokens (xml-tokens.ts), so a book can
// bring no script, style, form, frame or event handler, whatever its markup says. Headings move
// one level down (the page's h1 is the book title); the book's own landmarks (nav, header,
// aside…) become plain blocks, so the page keeps one set of landmarks; ids are prefixed per
// part so that two chapters never collide with each other or with the page.
import { bookClass, bookHeading, FIXED_PAGE_SCOPE } from './book-classes.ts';
import {
  foreignName,
  isTextAnnotation,
  MATH_ANNOTATIONS,
  mathAttributes,
  type Space,
  SVG_UNWRAPPED,
  spaceOf,
  svgAttributes,
} from './foreign-content.ts';
import { localName, type XmlToken, xmlTokens } from './xml-tokens.ts';

export type RenderedPart = {
  html: string;
  /** The text a person reads, as the browser's textContent of `html` gives it. */
  text: string;
  /**
   * The part's page-break markers (epub:type="pagebreak", role="doc-pagebreak"), in order:
   * the page's label (its title, aria-label or text, '' when it has none) and the id of the
   * element in `html` (one is given to a marker that has none), and where the page starts in
   * `text` (a character offset).
   */
  pageBreaks: { label: string; anchor: string; offset: number }[];
  /**
   * A pre-paginated page's size in CSS pixels (its `<meta name="viewport">`, else its drawing's
   * viewBox, else FIXED_PAGE_FALLBACK); null for a reflowable part (issue 16).
   */
  page: PageSize | null;
};

export type PageSize = { width: number; height: number };

/** The size a fixed page that gives none is shown at (a common tablet viewport). */
export const FIXED_PAGE_FALLBACK: PageSize = { width: 768, height: 1024 };

/** `width=600, height=800` (a viewport meta's content) as a size, or null. */
export function viewportSize(content: string): PageSize | null {
  const value = (key: string) => {
    const match = new RegExp(`(?:^|[,;\\s])${key}\\s*=\\s*(\\d+(?:\\.\\d+)?)`, 'i').exec(content);
    const n = match ? Number(match[1]) : Number.NaN;
    return n >= 1 && n <= 20_000 ? n : null;
  };
  const width = value('width');
  const height = value('height');
  return width && height ? { width, height } : null;
}

/** A length of a drawing's size in CSS pixels (a number, or px), when it is a page's. */
function drawingLength(value: string | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(px)?\s*$/i.exec(value ?? '');
  const n = match ? Number(match[1]) : Number.NaN;
  return n >= 1 && n <= 20_000 ? n : null;
}

/** The size of a page that is a drawing: its viewBox, else its width and height, or null. */
function drawingSize(attrs: Map<string, string>): PageSize | null {
  const box = (attrs.get('viewBox') ?? '').trim().split(/[\s,]+/);
  if (box.length === 4) {
    const [width, height] = [drawingLength(box[2]), drawingLength(box[3])];
    if (width && height) return { width, height };
  }
  const [width, height] = [drawingLength(attrs.get('width')), drawingLength(attrs.get('height'))];
  return width && height ? { width, height } : null;
}

export type LinkTarget = { part: number; fragment: string | null };

export type RenderOptions = {
  part: number;
  /** A link of the book to the part and fragment it names, or null when it leaves the book. */
  resolveLink(href: string): LinkTarget | null;
  /** The URL of the part, in this reader, that an internal link opens. */
  partHref(target: LinkTarget): string;
  /** The reader URL of an image of the book, or null when it is missing or not an image. */
  imageUrl(src: string): string | null;
  /**
   * A pre-paginated page (issue 16): its body becomes a block the page's styles apply to, and
   * `style` attributes are kept as `inlineStyle` rewrites them (null drops one).
   */
  fixed?: boolean;
  inlineStyle?(style: string): string | null;
};

const KEEP = new Set([
  'p',
  'span',
  'em',
  'strong',
  'b',
  'i',
  'u',
  's',
  'sub',
  'sup',
  'small',
  'mark',
  'abbr',
  'cite',
  'code',
  'pre',
  'kbd',
  'samp',
  'var',
  'q',
  'blockquote',
  'br',
  'hr',
  'ul',
  'ol',
  'li',
  'dl',
  'dt',
  'dd',
  'table',
  'thead',
  'tbody',
  'tfoot',
  'tr',
  'th',
  'td',
  'caption',
  'colgroup',
  'col',
  'figure',
  'figcaption',
  'img',
  'a',
  'ruby',
  'rt',
  'rp',
  'bdi',
  'bdo',
  'time',
  'dfn',
  'wbr',
  'section',
  'article',
  'div',
  'del',
  'ins',
]);
const AS_DIV = new Set(['nav', 'header', 'footer', 'aside', 'main', 'hgroup', 'address']);
// Dropped with everything inside them.
const DROP = new Set([
  'head',
  'script',
  'style',
  'template',
  'iframe',
  'object',
  'embed',
  'noscript',
  'select',
  'textarea',
  'button',
  'canvas',
  'map',
]);
const VOID = new Set(['br', 'hr', 'img', 'col', 'wbr']);
const ROLES = new Set(
  [
    'abstract',
    'acknowledgments',
    'afterword',
    'appendix',
    'backlink',
    'biblioentry',
    'bibliography',
    'biblioref',
    'chapter',
    'colophon',
    'conclusion',
    'cover',
    'credit',
    'credits',
    'dedication',
    'endnote',
    'endnotes',
    'epigraph',
    'epilogue',
    'errata',
    'example',
    'footnote',
    'foreword',
    'glossary',
    'glossref',
    'index',
    'introduction',
    'noteref',
    'notice',
    'pagebreak',
    'part',
    'preface',
    'prologue',
    'pullquote',
    'qna',
    'subtitle',
    'tip',
  ].map((name) => `doc-${name}`),
);
const PLAIN_ATTRIBUTES = new Set([
  'title',
  'alt',
  'dir',
  'colspan',
  'rowspan',
  'scope',
  'abbr',
  'start',
  'reversed',
  'value',
  'datetime',
  'aria-label',
  'aria-hidden',
]);
const ID_ATTRIBUTES = new Set([
  'id',
  'headers',
  'aria-labelledby',
  'aria-describedby',
  'aria-details',
]);
/** EPUB 3 types of a note's body (EPUB SSV), and the DPUB-ARIA roles of one. */
const NOTE_TYPES = new Set(['footnote', 'endnote', 'rearnote', 'note']);
const NOTE_ROLES = new Set(['doc-footnote', 'doc-endnote']);

export function partId(part: number, id: string): string {
  return `p${part}-${id.replace(/[^\w-]/g, '_')}`;
}

function escapeText(text: string): string {
  return text.replace(/[&<>]/g, (ch) => (ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : '&gt;'));
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}

function outputName(name: string): string | null {
  const heading = bookHeading(name);
  if (heading) return heading;
  if (KEEP.has(name)) return name;
  if (AS_DIV.has(name)) return 'div';
  return null;
}

function attributesOf(
  name: string,
  attrs: Map<string, string>,
  options: RenderOptions,
): [string, string][] {
  const out: [string, string][] = [];
  for (const [rawName, value] of attrs) {
    const attr = rawName.toLowerCase();
    if (attr === 'lang' || attr === 'xml:lang') {
      if (/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(value) && !out.some(([n]) => n === 'lang'))
        out.push(['lang', value]);
    } else if (ID_ATTRIBUTES.has(attr)) {
      const ids = value.split(/\s+/).filter(Boolean);
      if (ids.length > 0) out.push([attr, ids.map((id) => partId(options.part, id)).join(' ')]);
    } else if (attr === 'class') {
      // The publisher's classes, renamed as its scoped stylesheet names them (book-css.ts).
      const classes = value.split(/\s+/).map(bookClass).filter(Boolean);
      if (classes.length > 0 && !out.some(([n]) => n === 'class'))
        out.push(['class', classes.slice(0, 8).join(' ')]);
    } else if (attr === 'role') {
      const roles = value.split(/\s+/).filter((role) => ROLES.has(role));
      if (roles.length > 0) out.push(['role', roles[0]!]);
    } else if (PLAIN_ATTRIBUTES.has(attr)) {
      out.push([attr, value]);
    } else if (attr === 'style' && options.fixed && options.inlineStyle) {
      const style = options.inlineStyle(value);
      if (style) out.push(['style', style]);
    }
  }
  // EPUB 3's note semantics (issue 16, footnotes as pop-ups): a note reference is a link with
  // role doc-noteref, the note itself is marked data-note (a role would break the list an
  // endnote is an item of), a note's link back is doc-backlink.
  const types = (attrs.get('epub:type') ?? '').split(/\s+/);
  const hasRole = out.some(([n]) => n === 'role');
  if (name === 'a' && !hasRole && types.includes('noteref')) out.push(['role', 'doc-noteref']);
  if (name === 'a' && !hasRole && types.includes('backlink')) out.push(['role', 'doc-backlink']);
  if (
    types.some((type) => NOTE_TYPES.has(type)) ||
    out.some(([n, v]) => n === 'role' && NOTE_ROLES.has(v))
  )
    out.push(['data-note', '']);
  if (name === 'a') {
    const href = attrs.get('href');
    if (href) {
      if (/^(https?:|mailto:)/i.test(href.trim())) {
        out.push(['href', href.trim()], ['rel', 'noopener noreferrer external']);
      } else {
        const target = options.resolveLink(href);
        if (target) {
          out.push(['href', options.partHref(target)], ['data-part', String(target.part)]);
          if (target.fragment) out.push(['data-fragment', partId(target.part, target.fragment)]);
        }
      }
    }
  }
  if (name === 'img') {
    const src = attrs.get('src');
    const url = src ? options.imageUrl(src) : null;
    if (url) out.push(['src', url]);
    if (!out.some(([n]) => n === 'alt')) out.push(['alt', '']);
  }
  return out;
}

function isPageBreak(attrs: Map<string, string>): boolean {
  for (const [name, value] of attrs) {
    const attr = name.toLowerCase();
    const words = value.split(/\s+/);
    if (attr === 'epub:type' && words.includes('pagebreak')) return true;
    if (attr === 'role' && words.includes('doc-pagebreak')) return true;
  }
  return false;
}

/** The safe HTML and the text of one XHTML content document of the book. */
export function renderPart(xhtml: string, options: RenderOptions): RenderedPart {
  let html = '';
  const text: string[] = [];
  let textLength = 0;
  const pageBreaks: RenderedPart['pageBreaks'] = [];
  // The page break whose text is its label, while it is open.
  let labelOf: RenderedPart['pageBreaks'][number] | null = null;
  // Each open element of the source: the name we wrote for it, or null when it was unwrapped,
  // and the space (HTML, SVG, MathML) its children are in. A formula also remembers where its
  // open tag ends and a spoken fallback from its annotations, for when it has no alttext.
  type Open = {
    source: string;
    written: string | null;
    space: Space;
    pageBreak?: boolean;
    math?: { tagEnd: number; hasAlt: boolean; fallback: string | null };
  };
  const stack: Open[] = [];
  let dropDepth = 0;
  // A TeX or plain-text annotation being read: the formula it is for and its text so far.
  let annotation: { formula: NonNullable<Open['math']>; text: string } | null = null;
  let inBody = !/<body[\s>]/i.test(xhtml);
  // A page with no body is a drawing (an SVG content document, EPUB 3 §SVG): the whole of it
  // is the page's body.
  const bodiless = options.fixed && inBody;
  let page: PageSize | null = null;
  const prefix = (id: string) => partId(options.part, id);
  if (bodiless) html += `<div class="${FIXED_PAGE_SCOPE}">`;
  for (const token of xmlTokens(xhtml) as Iterable<XmlToken>) {
    if (token.type === 'text') {
      if (annotation && dropDepth === 1) annotation.text += token.text;
      if (!inBody || dropDepth > 0) continue;
      html += escapeText(token.text);
      text.push(token.text);
      textLength += token.text.length;
      if (labelOf) labelOf.label += token.text;
      continue;
    }
    const name = localName(token.name);
    if (name === 'body') {
      inBody = token.type === 'open' && !token.selfClosing;
      if (options.fixed && token.type === 'open') {
        // The page's body: what its styles and its `body` rules size and colour.
        const attrs = attributesOf('div', token.attrs, options).filter(([n]) => n !== 'id');
        const classes = attrs.find(([n]) => n === 'class')?.[1];
        const rest = attrs.filter(([n]) => n !== 'class');
        html += `<div class="${escapeAttribute(`${FIXED_PAGE_SCOPE}${classes ? ` ${classes}` : ''}`)}"${rest.map(([n, v]) => ` ${n}="${escapeAttribute(v)}"`).join('')}>`;
        if (token.selfClosing) html += '</div>';
      } else if (options.fixed && token.type === 'close') {
        while (stack.length > 0) {
          const open = stack.pop()!;
          if (open.written) html += `</${open.written}>`;
        }
        html += '</div>';
      }
      continue;
    }
    if (!inBody) {
      if (options.fixed && token.type === 'open' && name === 'meta') {
        const named = token.attrs.get('name')?.toLowerCase();
        if (named === 'viewport') page ??= viewportSize(token.attrs.get('content') ?? '');
      }
      continue;
    }
    if (options.fixed && !page && token.type === 'open' && name === 'svg' && stack.length === 0)
      page = drawingSize(token.attrs);
    if (token.type === 'open') {
      const current = stack.at(-1)?.space ?? 'html';
      const space = spaceOf(name, current);
      if (dropDepth > 0 || DROP.has(name)) {
        if (!token.selfClosing) dropDepth += 1;
        continue;
      }
      if (space !== 'html') {
        const written = foreignName(space, name);
        const attrs = !written
          ? null
          : space === 'svg'
            ? svgAttributes(written, token.attrs, prefix, options.imageUrl)
            : mathAttributes(token.attrs, prefix);
        const unwrapped =
          !written && (space === 'math' ? !MATH_ANNOTATIONS.has(name) : SVG_UNWRAPPED.has(name));
        if (!attrs && !unwrapped) {
          // Not kept, with all it holds; a formula's TeX or text annotation is read first.
          const formula = stack.findLast((open) => open.math)?.math;
          if (
            name === 'annotation' &&
            formula &&
            !formula.fallback &&
            isTextAnnotation(token.attrs)
          )
            annotation = { formula, text: '' };
          if (!token.selfClosing) dropDepth += 1;
          else annotation = null;
          continue;
        }
        if (written && attrs) {
          html += `<${written}${attrs.map(([n, v]) => ` ${n}="${escapeAttribute(v)}"`).join('')}>`;
          if (token.selfClosing) {
            html += `</${written}>`;
            continue;
          }
        }
        if (token.selfClosing) continue;
        stack.push({
          source: name,
          written: attrs ? written : null,
          space,
          math:
            name === 'math' && current === 'html'
              ? {
                  tagEnd: html.length - 1,
                  hasAlt: !!attrs?.some(([n]) => n === 'alttext'),
                  fallback: null,
                }
              : undefined,
        });
        continue;
      }
      const written = outputName(name);
      const pageBreak = isPageBreak(token.attrs);
      if (pageBreak) {
        // Printing finds the page by this element: it needs an id (one no XML id can be).
        const own = attributesOf('span', token.attrs, options).find(([n]) => n === 'id')?.[1];
        const anchor = own ?? `p${options.part}--page-${pageBreaks.length}`;
        const label = (token.attrs.get('title') ?? token.attrs.get('aria-label') ?? '').trim();
        pageBreaks.push({ label, anchor, offset: textLength });
        const hasContent = !token.selfClosing && !(written && VOID.has(written));
        if (!label && hasContent) labelOf = pageBreaks.at(-1)!;
        if (!own || !written) html += `<span id="${escapeAttribute(anchor)}"></span>`;
      }
      if (written) {
        const attrs = attributesOf(written, token.attrs, options);
        if (written === 'img' && !attrs.some(([n]) => n === 'src')) {
          const alt = token.attrs.get('alt');
          if (alt) {
            html += escapeText(alt);
            text.push(alt);
            textLength += alt.length;
          }
          continue;
        }
        html += `<${written}${attrs.map(([n, v]) => ` ${n}="${escapeAttribute(v)}"`).join('')}>`;
      }
      if (written && VOID.has(written)) continue;
      if (token.selfClosing) {
        if (written) html += `</${written}>`;
        continue;
      }
      stack.push({ source: name, written, space: 'html', pageBreak });
    } else {
      if (dropDepth > 0) {
        dropDepth -= 1;
        if (dropDepth === 0 && annotation) {
          annotation.formula.fallback = annotation.text.replace(/\s+/g, ' ').trim() || null;
          annotation = null;
        }
        continue;
      }
      const at = stack.findLastIndex((open) => open.source === name);
      if (at < 0) continue;
      while (stack.length > at) {
        const open = stack.pop()!;
        if (open.written) html += `</${open.written}>`;
        if (open.math && !open.math.hasAlt && open.math.fallback) {
          const { tagEnd, fallback } = open.math;
          html = `${html.slice(0, tagEnd)} alttext="${escapeAttribute(fallback)}"${html.slice(tagEnd)}`;
        }
        if (open.pageBreak && labelOf) {
          labelOf.label = labelOf.label.replace(/\s+/g, ' ').trim();
          labelOf = null;
        }
      }
    }
  }
  while (stack.length > 0) {
    const open = stack.pop()!;
    if (open.written) html += `</${open.written}>`;
  }
  if ((options.fixed && inBody && /<body[\s>]/i.test(xhtml)) || bodiless) html += '</div>';
  return {
    html,
    text: text.join(''),
    pageBreaks,
    page: options.fixed ? (page ?? FIXED_PAGE_FALLBACK) : null,
  };
}

/** Whitespace runs as one space, trimmed: the length DRM counts (a copy is measured alike). */
export function normalizedLength(text: string): number {
  return text.replace(/\s+/g, ' ').trim().length;
}
