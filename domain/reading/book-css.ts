import postcss, { type AtRule, type ChildNode, type Declaration, type Rule } from 'postcss';
import selectorParser from 'postcss-selector-parser';
import { BOOK_SCOPE, bookClass, FIXED_PAGE_SCOPE } from './book-classes.ts';

// The publisher's styling, applied within safe limits (issue 16, faithful pages). A book's
// stylesheets are read on the server with PostCSS (a maintained CSS parser: a hand-written one
// would be the weak point of the sandbox) and written again from allow-lists:
// - every selector is scoped to the book's area (BOOK_SCOPE), its classes renamed as the
//   renderer renames them (bookClass), so no rule can reach our controls or our classes;
// - only typographic and box properties are kept; nothing positions, layers, transforms or
//   animates, no value loads anything (url(), image-set(), @import, @font-face), and negative
//   margins are dropped, so the book cannot cover or move what is outside its area;
// - `!important` is removed and the whole sheet sits in the `book` cascade layer, so every
//   rule of ours wins over it: the reader's own settings (type, spacing, theme) apply where the
//   reader changed them (web/styles/app.css);
// - absolute font sizes (px, pt) become em of the book's 16 px, so the reader's type size scales
//   them as it scales the rest.

/** The most CSS read from one book, and kept after sanitising. */
export const BOOK_CSS_MAX_BYTES = 512 * 1024;

const PROPERTIES = new Set([
  'color',
  'background-color',
  'font',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'font-variant-caps',
  'font-variant-numeric',
  'font-feature-settings',
  'font-stretch',
  'line-height',
  'letter-spacing',
  'word-spacing',
  'text-align',
  'text-align-last',
  'text-indent',
  'text-transform',
  'text-decoration',
  'text-decoration-line',
  'text-decoration-style',
  'text-decoration-color',
  'text-underline-offset',
  'text-shadow',
  'white-space',
  'hyphens',
  '-webkit-hyphens',
  'vertical-align',
  'direction',
  'unicode-bidi',
  'writing-mode',
  'text-orientation',
  'text-combine-upright',
  'margin',
  'margin-top',
  'margin-right',
  'margin-bottom',
  'margin-left',
  'margin-block',
  'margin-block-start',
  'margin-block-end',
  'margin-inline',
  'margin-inline-start',
  'margin-inline-end',
  'padding',
  'padding-top',
  'padding-right',
  'padding-bottom',
  'padding-left',
  'padding-block',
  'padding-inline',
  'padding-block-start',
  'padding-block-end',
  'padding-inline-start',
  'padding-inline-end',
  'border',
  'border-top',
  'border-right',
  'border-bottom',
  'border-left',
  'border-width',
  'border-style',
  'border-color',
  'border-radius',
  'border-collapse',
  'border-spacing',
  'border-top-width',
  'border-bottom-width',
  'border-left-width',
  'border-right-width',
  'border-top-style',
  'border-bottom-style',
  'border-left-style',
  'border-right-style',
  'border-top-color',
  'border-bottom-color',
  'border-left-color',
  'border-right-color',
  'outline',
  'width',
  'max-width',
  'min-width',
  'height',
  'max-height',
  'min-height',
  'float',
  'clear',
  'display',
  'list-style',
  'list-style-type',
  'list-style-position',
  'caption-side',
  'empty-cells',
  'table-layout',
  'page-break-before',
  'page-break-after',
  'page-break-inside',
  'break-before',
  'break-after',
  'break-inside',
  'orphans',
  'widows',
  'quotes',
  'content',
  'counter-reset',
  'counter-increment',
  'font-kerning',
  'text-rendering',
  'overflow-wrap',
  'word-break',
  'box-sizing',
  'opacity',
]);

/** Display values that keep a box in the flow (no grid or flex of unknown content). */
const DISPLAYS = new Set([
  'block',
  'inline',
  'inline-block',
  'none',
  'list-item',
  'table',
  'table-row',
  'table-cell',
  'table-caption',
  'table-header-group',
  'table-row-group',
  'table-footer-group',
  'table-column',
  'table-column-group',
  'inline-table',
]);

/** What `html`, `body` and `:root` may set: they become the book's area itself. */
const ROOT_PROPERTIES = new Set([
  'color',
  'background-color',
  'font',
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'line-height',
  'text-align',
  'hyphens',
  '-webkit-hyphens',
  'direction',
  'writing-mode',
]);

const PSEUDOS = new Set([
  ':first-child',
  ':last-child',
  ':only-child',
  ':first-of-type',
  ':last-of-type',
  ':only-of-type',
  ':nth-child',
  ':nth-last-child',
  ':nth-of-type',
  ':nth-last-of-type',
  ':not',
  ':is',
  ':where',
  ':empty',
  ':link',
  ':visited',
  ':lang',
  '::first-letter',
  '::first-line',
  '::before',
  '::after',
  ':first-letter',
  ':first-line',
  ':before',
  ':after',
  '::marker',
]);

/**
 * What a pre-paginated page may set besides (issue 16): it places its own boxes. The page is
 * a box that clips, isolates and contains everything in it (web/styles/app.css
 * `.reader-fixed-page`), so nothing placed can leave it or cover the reader's controls.
 */
const FIXED_PROPERTIES = new Set([
  'position',
  'top',
  'right',
  'bottom',
  'left',
  'inset',
  'z-index',
  'transform',
  'transform-origin',
  'overflow',
  'overflow-x',
  'overflow-y',
]);
const FIXED_ROOT_PROPERTIES = new Set(['width', 'height', 'background-color', 'margin', 'padding']);
const POSITIONS = new Set(['static', 'relative', 'absolute']);

const ROOTS = new Set(['html', 'body', ':root']);
const LOADS = /url\s*\(|image-set|image\s*\(|expression\s*\(|javascript:|-moz-binding|behavior|\\/i;

/** A CSS length in px or pt as em of 16 px; any other value as it is. */
function relativeFontSize(value: string): string {
  return value.replace(/(-?\d*\.?\d+)(px|pt)\b/gi, (_, n: string, unit: string) => {
    const px = unit.toLowerCase() === 'pt' ? (Number(n) * 4) / 3 : Number(n);
    return `${Number((px / 16).toFixed(4))}em`;
  });
}

function allowedDeclaration(decl: Declaration, root: boolean, fixed: boolean): boolean {
  const property = decl.prop.toLowerCase();
  const value = decl.value.trim();
  const allowed =
    (root ? ROOT_PROPERTIES : PROPERTIES).has(property) ||
    (fixed && (root ? FIXED_ROOT_PROPERTIES : FIXED_PROPERTIES).has(property));
  if (!allowed) return false;
  if (LOADS.test(value) || value.length > 500) return false;
  if (property === 'display' && !DISPLAYS.has(value.toLowerCase())) return false;
  if (property === 'z-index' && !/^-?\d{1,4}$|^auto$/.test(value)) return false;
  if (property === 'position') {
    // Fixed or sticky would be placed against the page's box anyway: say so.
    if (!POSITIONS.has(value.toLowerCase())) decl.value = 'absolute';
  }
  if (!fixed && property.startsWith('margin') && /(^|\s)-\d|(^|\s)-\./.test(value)) return false;
  if (
    property === 'content' &&
    !/^(["'][^"'\\]{0,40}["']|none|normal|counter\([\w-]+\)|open-quote|close-quote)(\s+(["'][^"'\\]{0,40}["']|counter\([\w-]+\)))*$/.test(
      value,
    )
  )
    return false;
  return true;
}

/**
 * A selector of the book, rewritten for the reader's HTML, or null when it cannot be kept:
 * scoped to the book's area, classes renamed, no ids (the reader's ids are per chapter), no
 * namespaces, no pseudo-class outside the list. `html`, `body` and `:root` become the area.
 */
function scopedSelector(selector: string, fixed: boolean): { text: string; root: boolean } | null {
  let keep = true;
  let root = false;
  let text = '';
  try {
    text = selectorParser((selectors) => {
      selectors.each((one) => {
        const first = one.first;
        if (
          first &&
          (first.type === 'tag' || first.type === 'pseudo') &&
          ROOTS.has(first.value.toLowerCase())
        ) {
          // html body p → the area's p; body alone → the area.
          while (
            one.first &&
            (((one.first.type === 'tag' || one.first.type === 'pseudo') &&
              ROOTS.has(one.first.value.toLowerCase())) ||
              one.first.type === 'combinator')
          ) {
            one.first.remove();
          }
          if (!one.first) root = true;
        }
        one.walk((node) => {
          if (node.type === 'id' || node.type === 'nesting') keep = false;
          else if (node.type === 'tag' && (node.namespace || ROOTS.has(node.value.toLowerCase())))
            keep = false;
          else if (node.type === 'attribute' && node.namespace) keep = false;
          else if (node.type === 'pseudo' && !PSEUDOS.has(node.value.toLowerCase())) keep = false;
          else if (node.type === 'class') {
            const renamed = bookClass(node.value);
            if (renamed) node.value = renamed;
            else keep = false;
          }
        });
        const scope = selectorParser.className({ value: fixed ? FIXED_PAGE_SCOPE : BOOK_SCOPE });
        if (!one.first) {
          one.append(scope);
        } else {
          one.prepend(selectorParser.combinator({ value: ' ' }));
          one.prepend(scope);
        }
      });
    }).processSync(selector);
  } catch {
    return null;
  }
  return keep ? { text, root } : null;
}

function sanitiseRule(rule: Rule, fixed: boolean): void {
  const kept: string[] = [];
  let root = false;
  for (const selector of rule.selectors) {
    const scoped = scopedSelector(selector, fixed);
    if (!scoped) continue;
    kept.push(scoped.text);
    root ||= scoped.root;
  }
  if (kept.length === 0) {
    rule.remove();
    return;
  }
  // A list naming the area itself keeps only what the area may set.
  rule.selector = kept.join(', ');
  rule.each((child) => {
    if (child.type !== 'decl' || !allowedDeclaration(child, root, fixed)) {
      child.remove();
      return;
    }
    child.important = false;
    // A fixed page is drawn at its own pixel size and scaled whole: its sizes stay.
    if (!fixed && (child.prop.toLowerCase() === 'font-size' || child.prop.toLowerCase() === 'font'))
      child.value = relativeFontSize(child.value);
  });
  if (!rule.nodes?.length) rule.remove();
}

function sanitiseNodes(nodes: ChildNode[] | undefined, fixed: boolean): void {
  for (const node of [...(nodes ?? [])]) {
    if (node.type === 'rule') sanitiseRule(node, fixed);
    else if (node.type === 'atrule') sanitiseAtRule(node, fixed);
    else if (node.type === 'decl') node.remove();
  }
}

function sanitiseAtRule(rule: AtRule, fixed: boolean): void {
  const name = rule.name.toLowerCase();
  // A media query or a feature test keeps its rules, each sanitised; nothing else is kept.
  if ((name === 'media' || name === 'supports') && !LOADS.test(rule.params)) {
    sanitiseNodes(rule.nodes, fixed);
    if (!rule.nodes?.length) rule.remove();
    return;
  }
  rule.remove();
}

/**
 * The book's stylesheets, sanitised and scoped, as one sheet in the `book` cascade layer; ''
 * when nothing is left. CSS that does not parse is left out whole, sheet by sheet.
 */
export function bookStylesheet(
  sheets: readonly string[],
  { fixed = false }: { fixed?: boolean } = {},
): string {
  const out: string[] = [];
  let budget = BOOK_CSS_MAX_BYTES;
  for (const css of sheets) {
    if (css.length > budget) break;
    budget -= css.length;
    let root: postcss.Root;
    try {
      root = postcss.parse(css);
    } catch {
      continue;
    }
    sanitiseNodes(root.nodes, fixed);
    root.walkComments((comment) => {
      comment.remove();
    });
    // Put in a <style> element: no '<' may end it early (an escape means the same in CSS).
    const text = root.toString().trim().replaceAll('<', '\\3c ');
    if (text) out.push(text);
  }
  return out.length > 0 ? `@layer book {\n${out.join('\n')}\n}\n` : '';
}

/**
 * A `style` attribute of a pre-paginated page (issue 16), kept as its stylesheet's rules are
 * (the same allow-lists, sizes kept); null when nothing is left. Only its own declarations:
 * text that would close the block and open another rule is not read.
 */
export function fixedInlineStyle(style: string): string | null {
  if (style.length > 4_000 || /[{}]/.test(style)) return null;
  let root: postcss.Root;
  try {
    root = postcss.parse(`x{${style}}`);
  } catch {
    return null;
  }
  const rule = root.first;
  if (!rule || rule.type !== 'rule') return null;
  const kept: string[] = [];
  rule.each((child) => {
    if (child.type === 'decl' && allowedDeclaration(child, false, true))
      kept.push(`${child.prop.toLowerCase()}: ${child.value.trim()}`);
  });
  return kept.length > 0 ? kept.join('; ') : null;
}
