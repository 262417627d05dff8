// MathML and SVG inside a book's chapters (issue 16, faithful pages): rebuilt from the same
// tokens as the chapter's HTML (xhtml-content.ts), each from an allow-list of its own. What can
// run, fetch or cover the page never comes through: no script, style element, foreignObject,
// animation, event handler, link, filter, or url() that leaves the drawing. Ids are prefixed per
// part like the chapter's, and so are the references to them (href="#id", url(#id)), so a
// drawing's gradients and clip paths keep working beside another chapter's.
//
// MathML is left to the browser's own rendering (MathML Core), which screen readers read; a
// formula's alttext stays, and a TeX annotation becomes its alttext when it has none.

export type Space = 'html' | 'svg' | 'math';

/** MathML Core's elements, less mglyph (an image by URL) and the annotations (see below). */
const MATH_ELEMENTS = new Set([
  'math',
  'maction',
  'menclose',
  'merror',
  'mfrac',
  'mi',
  'mmultiscripts',
  'mn',
  'mo',
  'mover',
  'mpadded',
  'mphantom',
  'mprescripts',
  'mroot',
  'mrow',
  'ms',
  'mspace',
  'msqrt',
  'mstyle',
  'msub',
  'msubsup',
  'msup',
  'mtable',
  'mtd',
  'mtext',
  'mtr',
  'munder',
  'munderover',
  'none',
  'semantics',
]);
/** Not shown by a browser; their text would only confuse search and the copy count. */
export const MATH_ANNOTATIONS = new Set(['annotation', 'annotation-xml']);
const MATH_ATTRIBUTES = new Set([
  'accent',
  'accentunder',
  'columnalign',
  'columnlines',
  'columnspacing',
  'columnspan',
  'depth',
  'dir',
  'display',
  'displaystyle',
  'fence',
  'form',
  'frame',
  'height',
  'intent',
  'arg',
  'largeop',
  'linethickness',
  'lspace',
  'mathsize',
  'mathvariant',
  'maxsize',
  'minsize',
  'movablelimits',
  'notation',
  'rowalign',
  'rowlines',
  'rowspacing',
  'rowspan',
  'rspace',
  'scriptlevel',
  'separator',
  'stretchy',
  'symmetric',
  'voffset',
  'width',
]);

/** SVG's static drawing elements, by their lower-case name, written with SVG's own case. */
const SVG_ELEMENTS = new Map(
  [
    'svg',
    'g',
    'defs',
    'symbol',
    'use',
    'title',
    'desc',
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'text',
    'tspan',
    'textPath',
    'image',
    'linearGradient',
    'radialGradient',
    'stop',
    'clipPath',
    'mask',
    'pattern',
    'marker',
    'switch',
  ].map((name) => [name.toLowerCase(), name]),
);
/** Kept for their content only: a drawing's links would leave the reader. */
export const SVG_UNWRAPPED = new Set(['a']);

/** Geometry, paint and text attributes, lower-case name to SVG's spelling. */
const SVG_ATTRIBUTES = new Map(
  [
    'viewBox',
    'preserveAspectRatio',
    'width',
    'height',
    'x',
    'y',
    'x1',
    'y1',
    'x2',
    'y2',
    'cx',
    'cy',
    'r',
    'rx',
    'ry',
    'fx',
    'fy',
    'd',
    'points',
    'pathLength',
    'transform',
    'dx',
    'dy',
    'rotate',
    'textLength',
    'lengthAdjust',
    'startOffset',
    'offset',
    'gradientUnits',
    'gradientTransform',
    'spreadMethod',
    'patternUnits',
    'patternContentUnits',
    'patternTransform',
    'clipPathUnits',
    'maskUnits',
    'maskContentUnits',
    'markerWidth',
    'markerHeight',
    'markerUnits',
    'refX',
    'refY',
    'orient',
    'requiredFeatures',
    'systemLanguage',
    'role',
    'focusable',
  ].map((name) => [name.toLowerCase(), name]),
);
/** Presentation attributes; also taken from a style attribute, which is not kept itself. */
const SVG_PRESENTATION = new Set([
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'marker-start',
  'marker-mid',
  'marker-end',
  'stop-color',
  'stop-opacity',
  'color',
  'display',
  'visibility',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'alignment-baseline',
  'baseline-shift',
  'letter-spacing',
  'word-spacing',
  'text-decoration',
  'writing-mode',
  'vector-effect',
  'shape-rendering',
]);

/** Numbers, lengths, colours, keywords, path data and transforms; url() only as url(#id). */
const SAFE_VALUE = /^[\w\s.,%#()+-]*$/;
const LOCAL_URL = /^url\(\s*['"]?#([\w.:-]+)['"]?\s*\)$/;

/** The space an element opens: `svg` and `math` start their own, everything else stays. */
export function spaceOf(name: string, current: Space): Space {
  if (current === 'html' && name === 'svg') return 'svg';
  if (current === 'html' && name === 'math') return 'math';
  return current;
}

/** The name to write for an element of a foreign space, or null when it is not kept. */
export function foreignName(space: 'svg' | 'math', name: string): string | null {
  if (space === 'math') return MATH_ELEMENTS.has(name) ? name : null;
  return SVG_ELEMENTS.get(name.toLowerCase()) ?? null;
}

type Prefix = (id: string) => string;

function paintValue(value: string, prefix: Prefix): string | null {
  const trimmed = value.trim();
  const local = LOCAL_URL.exec(trimmed);
  if (local) return `url(#${prefix(local[1]!)})`;
  if (/url\s*\(|expression|javascript/i.test(trimmed)) return null;
  return SAFE_VALUE.test(trimmed) ? trimmed : null;
}

function presentation(name: string, value: string, prefix: Prefix): [string, string] | null {
  if (!SVG_PRESENTATION.has(name)) return null;
  if (name === 'font-family') {
    // Family names may be quoted; nothing else may come with them.
    return /^[\w\s,'"-]*$/.test(value.trim()) ? [name, value.trim()] : null;
  }
  const safe = paintValue(value, prefix);
  return safe === null ? null : [name, safe];
}

/**
 * The attributes kept on an SVG element: geometry and paint, ids and the references to them
 * prefixed, an image's href through `imageUrl` (null: not in the book, the image is left out).
 */
export function svgAttributes(
  name: string,
  attrs: Map<string, string>,
  prefix: Prefix,
  imageUrl: (src: string) => string | null,
): [string, string][] | null {
  const out: [string, string][] = [];
  const has = (attr: string) => out.some(([n]) => n === attr);
  let style = '';
  for (const [rawName, value] of attrs) {
    const attr = rawName.toLowerCase();
    if (attr === 'id') {
      if (value.trim()) out.push(['id', prefix(value.trim())]);
    } else if (attr === 'style') {
      style = value;
    } else if (attr === 'href' || attr === 'xlink:href') {
      const href = value.trim();
      if (name === 'image') {
        const url = imageUrl(href);
        if (url) out.push(['href', url]);
      } else if (href.startsWith('#') && href.length > 1) {
        out.push(['href', `#${prefix(href.slice(1))}`]);
      }
    } else if (attr === 'aria-label' || attr === 'aria-hidden' || attr === 'lang') {
      out.push([attr, value]);
    } else if (attr === 'aria-labelledby' || attr === 'aria-describedby') {
      const ids = value.split(/\s+/).filter(Boolean);
      if (ids.length > 0) out.push([attr, ids.map(prefix).join(' ')]);
    } else if (SVG_ATTRIBUTES.has(attr)) {
      if (SAFE_VALUE.test(value)) out.push([SVG_ATTRIBUTES.get(attr)!, value]);
    } else {
      const kept = presentation(attr, value, prefix);
      if (kept) out.push(kept);
    }
  }
  for (const declaration of style.split(';')) {
    const colon = declaration.indexOf(':');
    if (colon < 0) continue;
    const kept = presentation(
      declaration.slice(0, colon).trim().toLowerCase(),
      declaration.slice(colon + 1),
      prefix,
    );
    if (kept && !has(kept[0])) out.push(kept);
  }
  // An image that is not in the book, or a reference that leaves the drawing, is no element.
  if ((name === 'image' || name === 'use') && !has('href')) return null;
  return out;
}

/** The attributes kept on a MathML element (its alttext too; an id prefixed, no href). */
export function mathAttributes(attrs: Map<string, string>, prefix: Prefix): [string, string][] {
  const out: [string, string][] = [];
  for (const [rawName, value] of attrs) {
    const attr = rawName.toLowerCase();
    if (attr === 'id') {
      if (value.trim()) out.push(['id', prefix(value.trim())]);
    } else if (attr === 'alttext' || attr === 'aria-label') {
      out.push([attr, value]);
    } else if (MATH_ATTRIBUTES.has(attr) && SAFE_VALUE.test(value)) {
      out.push([attr, value]);
    }
  }
  return out;
}

/** A formula's spoken fallback from its annotations: TeX or plain text, the first one given. */
export function isTextAnnotation(attrs: Map<string, string>): boolean {
  const encoding = (attrs.get('encoding') ?? '').toLowerCase();
  return /^(application\/x-tex|text\/x-tex|application\/x-latex|text\/plain)$/.test(encoding);
}
