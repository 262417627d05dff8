import postcss, { type AtRule, type ChildNode, type Declaration, type Rule } from 'postcss';
import selectorParser from 'postcss-selector-parser';
import valueParser from 'postcss-value-parser';
import { BOOK_SCOPE, bookClass, bookHeading, FIXED_PAGE_SCOPE } from './book-classes.ts';

// The publisher's styling, applied within safe limits (issue 16, faithful pages). A book's
// stylesheets are read on the server with PostCSS (a maintained CSS parser: a hand-written one
// would be the weak point of the sandbox) and written again from allow-lists:
// - every selector is scoped to the book's area (BOOK_SCOPE), its classes renamed as the
//   renderer renames them (bookClass), so no rule can reach our controls or our classes;
// - only typographic and box properties are kept; nothing positions, layers, transforms or
//   animates, and negative margins are dropped, so the book cannot cover or move what is
//   outside its area;
// - a value loads only what the book itself carries: url() in a background or list image names
//   one of the book's images, and @font-face one of its fonts, each rewritten to the reader's
//   URL for it (BookResources); anything else that loads (@import, image-set(), remote or
//   missing files, local() fonts) is dropped. The book's font families are renamed ('b-' as
//   its classes are), so its faces can never replace the fonts of our controls;
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
  'background',
  'background-image',
  'background-repeat',
  'background-size',
  'background-position',
  'background-origin',
  'background-clip',
  'list-style-image',
]);

/** The properties whose url() may name one of the book's images. */
const IMAGE_PROPERTIES = new Set([
  'background',
  'background-image',
  'list-style',
  'list-style-image',
]);

/** What an @font-face of the book may say. */
const FONT_FACE_DESCRIPTORS = new Set([
  'font-family',
  'src',
  'font-style',
  'font-weight',
  'font-stretch',
  'unicode-range',
  'font-feature-settings',
  'font-variant',
  'size-adjust',
  'ascent-override',
  'descent-override',
  'line-gap-override',
]);
const FONT_FORMATS = new Set(['woff2', 'woff', 'truetype', 'opentype']);

/**
 * The reader's URL for an image or font a stylesheet names (`href` as written, relative to the
 * sheet at `sheetPath` in the book), or null when the book carries no such image or font.
 */
export type BookResources = (
  sheetPath: string,
  href: string,
  kind: 'image' | 'font',
) => string | null;

/** A stylesheet of the book and where it is in the book (a bare text can name no file). */
export type BookSheet = string | { path: string; text: string };

/** What sanitising one sheet needs to know. */
type SheetContext = {
  fixed: boolean;
  path: string | null;
  resources: BookResources | null;
  /** The book's own font families (its kept @font-face rules), lower-cased → their name here. */
  families: Map<string, string>;
};

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
const LOADS =
  /image-set|image\s*\(|cross-fade|element\s*\(|paint\s*\(|expression\s*\(|javascript:|-moz-binding|behavior|@import|\\/i;
const URL_FUNCTION = /url\s*\(/i;

/** A CSS string of a name: nothing in it can end the string (LOADS already refused `\`). */
function cssString(text: string): string {
  return `"${text.replace(/["\n\r\f]/g, '')}"`;
}

/**
 * The value with each url() rewritten to the reader's URL of the book's file it names; null
 * when one names nothing the book carries (remote, missing, or not an image / font).
 */
function bookUrls(value: string, sheet: SheetContext, kind: 'image' | 'font'): string | null {
  const parsed = valueParser(value);
  let ok = true;
  parsed.walk((node) => {
    if (node.type !== 'function' || node.value.toLowerCase() !== 'url') return;
    const href = node.nodes[0]?.value.trim() ?? '';
    const url =
      sheet.resources && sheet.path !== null && href
        ? sheet.resources(sheet.path, href, kind)
        : null;
    if (url === null) ok = false;
    else {
      (node as unknown as { type: string }).type = 'word';
      node.value = `url(${cssString(url)})`;
    }
    return false;
  });
  return ok ? parsed.toString() : null;
}

/** The family an @font-face names: one string, or words (null for anything else). */
function familyName(value: string): string | null {
  const nodes = valueParser(value).nodes.filter((node) => node.type !== 'space');
  if (nodes.length === 1 && nodes[0]!.type === 'string') return nodes[0]!.value.trim() || null;
  if (nodes.length > 0 && nodes.every((node) => node.type === 'word'))
    return nodes.map((node) => node.value).join(' ');
  return null;
}

/**
 * An @font-face `src` with only the book's own fonts (each url() rewritten, a known format()
 * kept), or null when none is left. local() is dropped: it would reach the fonts installed on
 * the reader's device, which the book cannot know and others could fingerprint.
 */
function fontSources(value: string, sheet: SheetContext): string | null {
  const kept: string[] = [];
  let group: valueParser.Node[] = [];
  const flush = () => {
    const url = group.find(
      (node) => node.type === 'function' && node.value.toLowerCase() === 'url',
    ) as valueParser.FunctionNode | undefined;
    const format = group.find(
      (node) => node.type === 'function' && node.value.toLowerCase() === 'format',
    ) as valueParser.FunctionNode | undefined;
    group = [];
    if (!url) return;
    const rewritten = bookUrls(valueParser.stringify(url), sheet, 'font');
    if (rewritten === null) return;
    const formatName = format?.nodes[0]?.value.toLowerCase();
    if (format && (!formatName || !FONT_FORMATS.has(formatName))) return;
    kept.push(formatName ? `${rewritten} format(${cssString(formatName)})` : rewritten);
  };
  for (const node of valueParser(value).nodes) {
    if (node.type === 'div' && node.value === ',') flush();
    else group.push(node);
  }
  flush();
  return kept.length > 0 ? kept.join(', ') : null;
}

/**
 * A font-family list (or the `font` shorthand) with the book's own families given their name
 * here: a quoted name, or the trailing words of a comma-separated part ("12px Minion Pro").
 */
function renameFamilies(value: string, families: Map<string, string>): string {
  if (families.size === 0) return value;
  const parsed = valueParser(value);
  const groups: valueParser.Node[][] = [[]];
  for (const node of parsed.nodes) {
    if (node.type === 'div' && node.value === ',') groups.push([]);
    else groups.at(-1)!.push(node);
  }
  for (const group of groups) {
    const quoted = group.find((node) => node.type === 'string');
    if (quoted) {
      const renamed = families.get(quoted.value.trim().toLowerCase());
      if (renamed) quoted.value = renamed;
      continue;
    }
    const words = group.filter((node) => node.type === 'word');
    for (let from = 0; from < words.length; from += 1) {
      const name = words
        .slice(from)
        .map((node) => node.value)
        .join(' ')
        .toLowerCase();
      const renamed = families.get(name);
      if (!renamed) continue;
      words[from]!.value = cssString(renamed);
      const start = group.indexOf(words[from]!);
      for (const node of group.slice(start + 1))
        if (node.type === 'word' || node.type === 'space') node.value = '';
      break;
    }
  }
  return parsed.toString().trim();
}

/** A CSS length in px or pt as em of 16 px; any other value as it is. */
function relativeFontSize(value: string): string {
  return value.replace(/(-?\d*\.?\d+)(px|pt)\b/gi, (_, n: string, unit: string) => {
    const px = unit.toLowerCase() === 'pt' ? (Number(n) * 4) / 3 : Number(n);
    return `${Number((px / 16).toFixed(4))}em`;
  });
}

function allowedDeclaration(decl: Declaration, root: boolean, sheet: SheetContext): boolean {
  const { fixed } = sheet;
  const property = decl.prop.toLowerCase();
  const value = decl.value.trim();
  const allowed =
    (root ? ROOT_PROPERTIES : PROPERTIES).has(property) ||
    (fixed && (root ? FIXED_ROOT_PROPERTIES : FIXED_PROPERTIES).has(property));
  if (!allowed) return false;
  if (LOADS.test(value) || value.length > 500) return false;
  if (URL_FUNCTION.test(value)) {
    const rewritten = IMAGE_PROPERTIES.has(property) ? bookUrls(value, sheet, 'image') : null;
    if (rewritten === null) return false;
    decl.value = rewritten;
  }
  if (property === 'font-family' || property === 'font')
    decl.value = renameFamilies(decl.value, sheet.families);
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
          // The book's headings are one level down in the reader (xhtml-content.ts).
          else if (node.type === 'tag' && bookHeading(node.value))
            node.value = bookHeading(node.value)!;
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

function sanitiseRule(rule: Rule, sheet: SheetContext): void {
  const { fixed } = sheet;
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
    if (child.type !== 'decl' || !allowedDeclaration(child, root, sheet)) {
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

function sanitiseNodes(nodes: ChildNode[] | undefined, sheet: SheetContext): void {
  for (const node of [...(nodes ?? [])]) {
    if (node.type === 'rule') sanitiseRule(node, sheet);
    else if (node.type === 'atrule') sanitiseAtRule(node, sheet);
    else if (node.type === 'decl') node.remove();
  }
}

/**
 * An @font-face of the book: kept when it names one of the book's fonts, its family renamed
 * (SheetContext.families), shown with `font-display: swap` (the text is readable while the font
 * loads).
 */
function sanitiseFontFace(rule: AtRule, sheet: SheetContext): void {
  let family = false;
  let src = false;
  rule.each((child) => {
    const property = child.type === 'decl' ? child.prop.toLowerCase() : '';
    if (
      child.type !== 'decl' ||
      !FONT_FACE_DESCRIPTORS.has(property) ||
      child.value.length > 2_000 ||
      LOADS.test(child.value) ||
      (property !== 'src' && URL_FUNCTION.test(child.value))
    ) {
      child.remove();
      return;
    }
    child.important = false;
    if (property === 'font-family') {
      const name = familyName(child.value);
      const renamed = name === null ? undefined : sheet.families.get(name.toLowerCase());
      if (renamed) child.value = cssString(renamed);
      else child.remove();
      family ||= renamed !== undefined;
    } else if (property === 'src') {
      const sources = fontSources(child.value, sheet);
      if (sources) child.value = sources;
      else child.remove();
      src ||= sources !== null;
    }
  });
  if (!family || !src) {
    rule.remove();
    return;
  }
  rule.append({ prop: 'font-display', value: 'swap' });
}

/** The families the book's @font-face rules give fonts it carries, renamed 'b-…'. */
function bookFamilies(
  roots: { root: postcss.Root; path: string | null }[],
  resources: BookResources | null,
) {
  const families = new Map<string, string>();
  for (const { root, path } of roots) {
    const sheet: SheetContext = { fixed: false, path, resources, families };
    root.walkAtRules(/^font-face$/i, (face) => {
      let name: string | null = null;
      let sources = false;
      face.walkDecls((decl) => {
        const property = decl.prop.toLowerCase();
        if (property === 'font-family') name = familyName(decl.value);
        if (property === 'src' && !LOADS.test(decl.value))
          sources ||= fontSources(decl.value, sheet) !== null;
      });
      if (name !== null && sources) {
        const key = (name as string).toLowerCase();
        if (!families.has(key) && key.length <= 100) families.set(key, `b-${name}`);
      }
    });
  }
  return families;
}

function sanitiseAtRule(rule: AtRule, sheet: SheetContext): void {
  const name = rule.name.toLowerCase();
  if (name === 'font-face') {
    sanitiseFontFace(rule, sheet);
    return;
  }
  // A media query or a feature test keeps its rules, each sanitised; nothing else is kept.
  if ((name === 'media' || name === 'supports') && !LOADS.test(rule.params)) {
    sanitiseNodes(rule.nodes, sheet);
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
  sheets: readonly BookSheet[],
  { fixed = false, resources = null }: { fixed?: boolean; resources?: BookResources | null } = {},
): string {
  const parsed: { root: postcss.Root; path: string | null }[] = [];
  let budget = BOOK_CSS_MAX_BYTES;
  for (const sheet of sheets) {
    const { text: css, path } = typeof sheet === 'string' ? { text: sheet, path: null } : sheet;
    if (css.length > budget) break;
    budget -= css.length;
    try {
      parsed.push({ root: postcss.parse(css), path });
    } catch {}
  }
  const families = bookFamilies(parsed, resources);
  const out: string[] = [];
  for (const { root, path } of parsed) {
    sanitiseNodes(root.nodes, { fixed, path, resources, families });
    root.walkComments((comment) => {
      comment.remove();
    });
    // Put in a <style> element: no '<' may end it early (an escape means the same in CSS).
    // No raw line break either: PostCSS keeps one inside a quoted string, where a browser ends
    // the string and reads what follows as rules of their own (a space means the same
    // everywhere else in CSS).
    const text = root
      .toString()
      .trim()
      .replaceAll('<', '\\3c ')
      .replace(/[\n\r\f]/g, ' ');
    if (text) out.push(text);
  }
  return out.length > 0 ? `@layer book {\n${out.join('\n')}\n}\n` : '';
}

/**
 * A `style` attribute of a pre-paginated page (issue 16), kept as its stylesheet's rules are
 * (the same allow-lists, sizes kept); null when nothing is left. Only its own declarations:
 * text that would close the block and open another rule is not read.
 */
export function fixedInlineStyle(
  style: string,
  where: { path: string; resources: BookResources } | null = null,
): string | null {
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
    const sheet: SheetContext = {
      fixed: true,
      path: where?.path ?? null,
      resources: where?.resources ?? null,
      families: new Map(),
    };
    if (child.type === 'decl' && allowedDeclaration(child, false, sheet))
      kept.push(`${child.prop.toLowerCase()}: ${child.value.trim().replace(/[\n\r\f]/g, ' ')}`);
  });
  return kept.length > 0 ? kept.join('; ') : null;
}
