// An EPUB (2 or 3) read on the server: its container, package document (title, manifest,
// spine) and table of contents (EPUB 3 nav document, else the EPUB 2 NCX), and each spine
// item rendered to safe HTML (xhtml-content.ts). The browser never parses the publisher's
// markup itself; it shows what this module wrote.
import path from 'node:path/posix';
import { type BookSheet, fixedInlineStyle } from './book-css.ts';
import { deobfuscateFont } from './font-obfuscation.ts';
import type { PageMark } from './print-pages.ts';
import { type LinkTarget, partId, type RenderedPart, renderPart } from './xhtml-content.ts';
import { localName, xmlTokens } from './xml-tokens.ts';
import { InvalidArchive, openZip, type ZipArchive } from './zip-archive.ts';

export type TocEntry = {
  label: string;
  part: number;
  fragment: string | null;
  children: TocEntry[];
};

export type EpubPublication = {
  title: string;
  /** The first dc:language of the package, as written (null when there is none). */
  language: string | null;
  /** The spine's page-progression-direction ('ltr', 'rtl', 'default'), if given. */
  pageProgression: string | null;
  /**
   * The spine items a reader reads in order (linear="no" ones are left out); `fixed` for a
   * pre-paginated page (EPUB 3 `rendition:layout`, of the book or of its itemref), with the
   * side of a two-page spread it asks for (`page-spread-left|right`, `rendition:page-spread-center`).
   */
  parts: { path: string; title: string; fixed: boolean; side: PageSide | null }[];
  /** Whether the book lays its pages out itself (`rendition:layout` pre-paginated, issue 16). */
  layout: 'reflowable' | 'pre-paginated';
  /** EPUB 3 `rendition:spread` of the book: when two fixed pages share a screen. */
  spread: 'none' | 'landscape' | 'both' | 'auto';
  toc: TocEntry[];
  /** The pages of the printed edition (EPUB 3 nav page-list, else the NCX pageList), if any. */
  pageList: PageMark[];
  /** Archive paths of the book's images, which the reader may serve. */
  images: Set<string>;
  /** Archive paths of the book's fonts (issue 16: the publisher's @font-face), likewise. */
  fonts: Set<string>;
  /**
   * An image or font of the book, as the browser is to get it (an obfuscated font restored,
   * font-obfuscation.ts); null for anything else, and for a file the book encrypts.
   */
  readResource(archivePath: string): { data: Buffer; mediaType: string } | null;
  /** The package's stylesheets (text/css items) and where each is, in manifest order (issue 16). */
  styleSheets(): BookSheet[];
  /**
   * The archive path of the image or font `href` names from the file at `base` (a stylesheet,
   * a page); null when the book carries no such file.
   */
  resourcePath(base: string, href: string, kind: 'image' | 'font'): string | null;
  renderPart(
    part: number,
    urls: { partHref(target: LinkTarget): string; imageUrl(archivePath: string): string },
  ): RenderedPart;
};

// SVG pictures too (issue 16): as an <img> a browser runs nothing in them, and opened by
// themselves they come with a sandboxing policy (web/routes/file-read.ts).
const IMAGE_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/svg+xml',
]);

/** Font media types as packages give them (EPUB 3 core media types, and older names). */
const FONT_TYPES = new Map([
  ['font/woff2', 'font/woff2'],
  ['font/woff', 'font/woff'],
  ['application/font-woff', 'font/woff'],
  ['font/ttf', 'font/ttf'],
  ['application/x-font-ttf', 'font/ttf'],
  ['application/x-font-truetype', 'font/ttf'],
  ['font/otf', 'font/otf'],
  ['font/sfnt', 'font/otf'],
  ['application/font-sfnt', 'font/otf'],
  ['application/vnd.ms-opentype', 'font/otf'],
  ['application/x-font-opentype', 'font/otf'],
]);
const FONT_EXTENSIONS = new Map([
  ['.woff2', 'font/woff2'],
  ['.woff', 'font/woff'],
  ['.ttf', 'font/ttf'],
  ['.otf', 'font/otf'],
]);

/** The font type of a manifest item, by its media type, else its extension (many books mislabel fonts). */
function fontType(item: ManifestItem): string | null {
  return (
    FONT_TYPES.get(item.mediaType.toLowerCase()) ??
    FONT_EXTENSIONS.get(path.extname(item.href).toLowerCase()) ??
    null
  );
}

/**
 * META-INF/encryption.xml: each file it lists and the algorithm it names (archive paths; the
 * URIs are relative to the archive's root).
 */
function encryptedFiles(zip: ZipArchive): Map<string, string> {
  const files = new Map<string, string>();
  const xml = zip.readText('META-INF/encryption.xml');
  if (!xml) return files;
  let algorithm: string | null = null;
  for (const token of xmlTokens(xml)) {
    if (token.type !== 'open') continue;
    const name = localName(token.name);
    if (name === 'encrypteddata') algorithm = null;
    if (name === 'encryptionmethod') algorithm = token.attrs.get('Algorithm') ?? null;
    if (name === 'cipherreference') {
      const target = resolve('', token.attrs.get('URI') ?? '');
      // An entry without a method is encrypted by means unknown: never served.
      if (target) files.set(target.path, algorithm ?? '');
    }
  }
  return files;
}

type ManifestItem = { href: string; mediaType: string; properties: string[] };

export type PageSide = 'left' | 'right' | 'center';

const SPREADS = new Set(['none', 'landscape', 'both', 'auto']);

function resolve(base: string, href: string): { path: string; fragment: string | null } | null {
  const [rawPath = '', rawFragment] = href.split('#', 2);
  if (/^[a-z][a-z0-9+.-]*:/i.test(rawPath)) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    return null;
  }
  const joined = decoded === '' ? base : path.normalize(path.join(path.dirname(base), decoded));
  if (joined.startsWith('../') || joined.startsWith('/')) return null;
  return { path: joined, fragment: rawFragment ? rawFragment : null };
}

function attributeOf(xml: string, element: string, attribute: string): string | null {
  for (const token of xmlTokens(xml)) {
    if (token.type === 'open' && localName(token.name) === element) {
      const value = token.attrs.get(attribute);
      if (value) return value;
    }
  }
  return null;
}

export function openEpub(data: Buffer): EpubPublication {
  const zip = openZip(data);
  const container = zip.readText('META-INF/container.xml');
  if (!container) throw new InvalidArchive('no META-INF/container.xml');
  const opfPath = attributeOf(container, 'rootfile', 'full-path');
  const opf = opfPath ? zip.readText(opfPath) : null;
  if (!opfPath || !opf) throw new InvalidArchive('no package document');

  let title = '';
  let inTitle = false;
  // The package's unique-identifier names the dc:identifier that keys font obfuscation.
  let uniqueIdentifierId: string | null = null;
  let identifierId: string | null = null;
  let uniqueIdentifier: string | null = null;
  let language: string | null = null;
  let inLanguage = false;
  let pageProgression: string | null = null;
  // EPUB 3 rendition properties of the whole book: <meta property="rendition:…">value</meta>.
  let renditionProperty: string | null = null;
  const rendition = new Map<string, string>();
  const manifest = new Map<string, ManifestItem>();
  const spine: string[] = [];
  const spineProperties: string[][] = [];
  let ncxId: string | null = null;
  for (const token of xmlTokens(opf)) {
    if (token.type === 'text') {
      if (inTitle) title += token.text;
      if (identifierId !== null && identifierId === uniqueIdentifierId)
        uniqueIdentifier = (uniqueIdentifier ?? '') + token.text;
      if (inLanguage) language = (language ?? '') + token.text;
      if (renditionProperty)
        rendition.set(renditionProperty, (rendition.get(renditionProperty) ?? '') + token.text);
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'close') {
      if (name === 'title') inTitle = false;
      if (name === 'language') inLanguage = false;
      if (name === 'meta') renditionProperty = null;
      if (name === 'identifier') identifierId = null;
      continue;
    }
    if (name === 'package') uniqueIdentifierId = token.attrs.get('unique-identifier') ?? null;
    if (name === 'identifier' && token.name.includes(':') && !token.selfClosing)
      identifierId = token.attrs.get('id') ?? null;
    if (name === 'meta' && !token.selfClosing) {
      const property = token.attrs.get('property') ?? '';
      // Refinements (`refines`) are about one item, not the book.
      if (property.startsWith('rendition:') && !token.attrs.has('refines'))
        renditionProperty = property;
    }
    if (name === 'title' && token.name.includes(':') && !title) inTitle = !token.selfClosing;
    if (name === 'language' && token.name.includes(':') && language === null)
      inLanguage = !token.selfClosing;
    if (name === 'item') {
      const id = token.attrs.get('id');
      const href = token.attrs.get('href');
      const target = href ? resolve(opfPath, href) : null;
      if (id && target) {
        manifest.set(id, {
          href: target.path,
          mediaType: token.attrs.get('media-type') ?? '',
          properties: (token.attrs.get('properties') ?? '').split(/\s+/),
        });
      }
    }
    if (name === 'spine') {
      ncxId = token.attrs.get('toc') ?? null;
      pageProgression = token.attrs.get('page-progression-direction') ?? null;
    }
    if (name === 'itemref' && token.attrs.get('linear') !== 'no') {
      const item = manifest.get(token.attrs.get('idref') ?? '');
      // XHTML pages, and SVG ones (EPUB 3 SVG content documents: a fixed-layout book's drawn pages).
      if (item && (/x?html/.test(item.mediaType) || item.mediaType === 'image/svg+xml')) {
        spine.push(item.href);
        spineProperties.push((token.attrs.get('properties') ?? '').split(/\s+/));
      }
    }
  }
  if (spine.length === 0) throw new InvalidArchive('empty spine');
  const partOf = new Map(spine.map((href, i) => [href, i]));
  const images = new Set(
    [...manifest.values()]
      .filter((item) => IMAGE_TYPES.has(item.mediaType))
      .map((item) => item.href),
  );
  const fonts = new Set(
    [...manifest.values()].filter((item) => fontType(item) !== null).map((item) => item.href),
  );
  // The type each image or font is served with: only an image's or a font's, so two items of
  // one href (an image and a page) can never serve the page's type from our origin.
  const mediaTypes = new Map<string, string>();
  for (const item of manifest.values()) {
    const type = IMAGE_TYPES.has(item.mediaType) ? item.mediaType : fontType(item);
    if (type) mediaTypes.set(item.href, type);
  }
  const encrypted = encryptedFiles(zip);

  const navItem = [...manifest.values()].find((item) => item.properties.includes('nav'));
  const ncxItem = ncxId ? manifest.get(ncxId) : undefined;
  const toc = navItem
    ? navToc(zip, navItem.href, partOf)
    : ncxItem
      ? ncxToc(zip, ncxItem.href, partOf)
      : [];
  let pageList = navItem ? navPageList(zip, navItem.href, partOf) : [];
  if (pageList.length === 0 && ncxItem) pageList = ncxPageList(zip, ncxItem.href, partOf);
  const titles = new Map<number, string>();
  const visit = (entries: TocEntry[]) => {
    for (const entry of entries) {
      if (!titles.has(entry.part)) titles.set(entry.part, entry.label);
      visit(entry.children);
    }
  };
  visit(toc);
  const layout =
    rendition.get('rendition:layout')?.trim() === 'pre-paginated' ? 'pre-paginated' : 'reflowable';
  const spread = rendition.get('rendition:spread')?.trim() ?? 'auto';
  const parts = spine.map((href, i) => {
    const properties = spineProperties[i] ?? [];
    const fixed = properties.includes('rendition:layout-pre-paginated')
      ? true
      : properties.includes('rendition:layout-reflowable')
        ? false
        : layout === 'pre-paginated';
    const side: PageSide | null = properties.includes('page-spread-left')
      ? 'left'
      : properties.includes('page-spread-right')
        ? 'right'
        : properties.includes('rendition:page-spread-center')
          ? 'center'
          : null;
    return { path: href, title: titles.get(i) ?? '', fixed, side };
  });

  return {
    title: title.trim(),
    language: language?.trim() || null,
    pageProgression,
    parts,
    layout,
    spread: SPREADS.has(spread) ? (spread as EpubPublication['spread']) : 'auto',
    toc,
    pageList,
    images,
    fonts,
    styleSheets() {
      return [...manifest.values()]
        .filter((item) => item.mediaType === 'text/css')
        .map((item) => ({ path: item.href, text: zip.readText(item.href) ?? '' }));
    },
    resourcePath(base, href, kind) {
      const target = resolve(base, href);
      if (!target || !(kind === 'font' ? fonts : images).has(target.path)) return null;
      return target.path;
    },
    readResource(archivePath) {
      const font = fonts.has(archivePath);
      if (!font && !images.has(archivePath)) return null;
      let bytes = zip.read(archivePath);
      const algorithm = encrypted.get(archivePath);
      if (bytes && algorithm !== undefined)
        bytes = font ? deobfuscateFont(bytes, algorithm, uniqueIdentifier?.trim() ?? null) : null;
      return bytes ? { data: bytes, mediaType: mediaTypes.get(archivePath)! } : null;
    },
    renderPart(part, urls) {
      const href = spine[part];
      if (href === undefined) throw new RangeError(`no part ${part}`);
      const xhtml = zip.readText(href) ?? '';
      return renderPart(xhtml, {
        part,
        fixed: parts[part]!.fixed,
        // A page's own background picture is one of the book's images, or nothing.
        inlineStyle: (style) =>
          fixedInlineStyle(style, {
            path: href,
            resources: (base, link, kind) => {
              const target = kind === 'image' ? resolve(base, link) : null;
              return target && images.has(target.path) ? urls.imageUrl(target.path) : null;
            },
          }),
        resolveLink(link) {
          const target = resolve(href, link);
          if (!target) return null;
          const linked = partOf.get(target.path);
          return linked === undefined ? null : { part: linked, fragment: target.fragment };
        },
        partHref: urls.partHref,
        imageUrl(src) {
          const target = resolve(href, src);
          return target && images.has(target.path) ? urls.imageUrl(target.path) : null;
        },
      });
    },
  };
}

function tocTarget(
  base: string,
  href: string | undefined,
  partOf: Map<string, number>,
): { part: number; fragment: string | null } | null {
  const target = href ? resolve(base, href) : null;
  const part = target ? partOf.get(target.path) : undefined;
  return target && part !== undefined ? { part, fragment: target.fragment } : null;
}

// EPUB 3: the <nav epub:type="toc"> of the navigation document, nested <ol>/<li>/<a>.
function navToc(zip: ZipArchive, navPath: string, partOf: Map<string, number>): TocEntry[] {
  const xml = zip.readText(navPath);
  if (!xml) return [];
  const root: TocEntry[] = [];
  const lists: TocEntry[][] = [];
  const items: (TocEntry | null)[] = [];
  let pending: { label: string; href: string | undefined } | null = null;
  let inToc = false;
  for (const token of xmlTokens(xml)) {
    if (token.type === 'text') {
      if (pending) pending.label += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'open') {
      if (name === 'nav' && (token.attrs.get('epub:type') ?? '').split(/\s+/).includes('toc'))
        inToc = true;
      if (!inToc || token.selfClosing) continue;
      // A nested list belongs to the entry of its item; under an item without a link, to the
      // list around it.
      if (name === 'ol') lists.push(items.at(-1)?.children ?? lists.at(-1) ?? root);
      if (name === 'li') items.push(null);
      if (name === 'a' || name === 'span') pending = { label: '', href: token.attrs.get('href') };
      continue;
    }
    if (!inToc) continue;
    if (name === 'nav') break;
    if ((name === 'a' || name === 'span') && pending) {
      const target = tocTarget(navPath, pending.href, partOf);
      const label = pending.label.replace(/\s+/g, ' ').trim();
      if (target && label && items.length > 0) {
        const entry: TocEntry = { label, ...target, children: [] };
        (lists.at(-1) ?? root).push(entry);
        items[items.length - 1] = entry;
      }
      pending = null;
    }
    if (name === 'li') items.pop();
    if (name === 'ol') lists.pop();
  }
  return root;
}

// EPUB 2: navPoints of the NCX, each with a navLabel and a content src.
function ncxToc(zip: ZipArchive, ncxPath: string, partOf: Map<string, number>): TocEntry[] {
  const xml = zip.readText(ncxPath);
  if (!xml) return [];
  const root: TocEntry[] = [];
  const stack: { entry: TocEntry | null; label: string; src?: string; children: TocEntry[] }[] = [];
  let inText = false;
  for (const token of xmlTokens(xml)) {
    const top = stack[stack.length - 1];
    if (token.type === 'text') {
      if (inText && top) top.label += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'open') {
      if (name === 'navpoint') stack.push({ entry: null, label: '', children: [] });
      if (name === 'text') inText = !token.selfClosing;
      if (name === 'content' && top) top.src = token.attrs.get('src');
    } else {
      if (name === 'text') inText = false;
      if (name === 'navpoint') {
        const done = stack.pop();
        if (!done) continue;
        const target = tocTarget(ncxPath, done.src, partOf);
        const label = done.label.replace(/\s+/g, ' ').trim();
        const list = stack[stack.length - 1]?.children ?? root;
        if (target && label) list.push({ label, ...target, children: done.children });
        else list.push(...done.children);
      }
    }
  }
  return root;
}

function pageMark(
  base: string,
  href: string | undefined,
  label: string,
  partOf: Map<string, number>,
): PageMark | null {
  const target = tocTarget(base, href, partOf);
  if (!target) return null;
  return {
    label: label.replace(/\s+/g, ' ').trim(),
    part: target.part,
    anchor: target.fragment ? partId(target.part, target.fragment) : null,
  };
}

// EPUB 3: the <nav epub:type="page-list"> of the navigation document, a flat list of links.
function navPageList(zip: ZipArchive, navPath: string, partOf: Map<string, number>): PageMark[] {
  const xml = zip.readText(navPath);
  if (!xml) return [];
  const marks: PageMark[] = [];
  let inList = false;
  let pending: { label: string; href: string | undefined } | null = null;
  for (const token of xmlTokens(xml)) {
    if (token.type === 'text') {
      if (pending) pending.label += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'open') {
      if (name === 'nav' && (token.attrs.get('epub:type') ?? '').split(/\s+/).includes('page-list'))
        inList = true;
      if (inList && name === 'a' && !token.selfClosing)
        pending = { label: '', href: token.attrs.get('href') };
      continue;
    }
    if (!inList) continue;
    if (name === 'nav') break;
    if (name === 'a' && pending) {
      const mark = pageMark(navPath, pending.href, pending.label, partOf);
      if (mark) marks.push(mark);
      pending = null;
    }
  }
  return marks;
}

// EPUB 2: the NCX's <pageList> of pageTargets, each with a navLabel and a content src.
function ncxPageList(zip: ZipArchive, ncxPath: string, partOf: Map<string, number>): PageMark[] {
  const xml = zip.readText(ncxPath);
  if (!xml) return [];
  const marks: PageMark[] = [];
  let target: { label: string; src?: string } | null = null;
  let inText = false;
  for (const token of xmlTokens(xml)) {
    if (token.type === 'text') {
      if (inText && target) target.label += token.text;
      continue;
    }
    const name = localName(token.name);
    if (token.type === 'open') {
      if (name === 'pagetarget') target = { label: '' };
      if (name === 'text') inText = !token.selfClosing;
      if (name === 'content' && target) target.src = token.attrs.get('src');
      continue;
    }
    if (name === 'text') inText = false;
    if (name === 'pagetarget' && target) {
      const mark = pageMark(ncxPath, target.src, target.label, partOf);
      if (mark) marks.push(mark);
      target = null;
    }
  }
  return marks;
}
