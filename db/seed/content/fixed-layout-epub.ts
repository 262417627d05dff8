// A small, valid fixed-layout EPUB 3 (`rendition:layout` pre-paginated): a picture book whose
// pages are drawn at 600×800 CSS pixels, each an SVG picture with its words placed on it by
// the publisher's CSS (absolute positions, pixel sizes) and inline styles, a cover shown by
// itself and the pages after it in left/right spreads (issue 16: "a fixed-layout picture
// book"). A back cover, when given, is a page drawn as an SVG content document (EPUB 3 allows
// one in the spine), as picture-book publishers often make them. The demo catalog sells one,
// and the reader's tests open it.
import { escapeXml } from './xml.ts';
import { createZip } from './zip.ts';

export type PicturePage = {
  /** The words printed on the page. */
  text: string;
  /** What the picture shows, for people who do not see it. */
  alt: string;
  /** The picture's main colour (a CSS hex colour). */
  colour: string;
};

export type FixedLayoutInput = {
  title: string;
  author: string;
  language: string;
  identifier: string;
  pages: PicturePage[];
  /** The last page, drawn in SVG by itself (its words are SVG text). */
  backCover?: PicturePage;
  /** false: no schema.org accessibility metadata, as many picture books shipped before 2025. */
  accessibilityMetadata?: boolean;
};

const BACK_COVER_FILE = 'back-cover.svg';

function backCoverSvg(input: FixedLayoutInput, page: PicturePage): string {
  const { width, height } = PICTURE_PAGE_SIZE;
  return `${XML_DECLARATION}<svg xmlns="http://www.w3.org/2000/svg" version="1.1" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}">
  <title>${escapeXml(`${input.title}, back cover`)}</title>
  <g role="img" aria-label="${escapeXml(page.alt)}">
    <rect width="${width}" height="${height}" fill="${escapeXml(page.colour)}"/>
    <circle cx="300" cy="300" r="160" fill="#ffffff" opacity="0.35"/>
  </g>
  <text x="300" y="640" font-family="sans-serif" font-size="40" text-anchor="middle" fill="#ffffff">${escapeXml(page.text)}</text>
</svg>
`;
}

export const PICTURE_PAGE_SIZE = { width: 600, height: 800 } as const;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';
const MODIFIED = '2024-01-01T00:00:00Z';

const STYLESHEET = `body { width: 600px; height: 800px; margin: 0; background-color: #fffdf6; }
.picture { position: absolute; top: 0; left: 0; width: 600px; height: 560px; }
.words { position: absolute; left: 48px; right: 48px; top: 590px; font-family: sans-serif; font-size: 28px; line-height: 1.3; color: #1f2a37; text-align: center; }
.folio { position: fixed; bottom: 16px; right: 24px; font-size: 14px; color: #4b5563; }
.cover-title { position: absolute; top: 600px; left: 0; right: 0; font-size: 44px; text-align: center; color: #102a43; }
`;

const pageFile = (i: number) => `page-${String(i).padStart(3, '0')}.xhtml`;
const pictureFile = (i: number) => `images/picture-${String(i).padStart(3, '0')}.svg`;

function picture(page: PicturePage, i: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 560" width="600" height="560">
  <rect width="600" height="560" fill="${escapeXml(page.colour)}"/>
  <circle cx="${150 + ((i * 97) % 300)}" cy="200" r="110" fill="#ffffff" opacity="0.55"/>
  <rect x="60" y="380" width="480" height="120" rx="24" fill="#ffffff" opacity="0.35"/>
</svg>
`;
}

function pageXhtml(input: FixedLayoutInput, page: PicturePage, i: number, cover: boolean): string {
  const lang = escapeXml(input.language);
  const words = cover
    ? `<h1 class="cover-title">${escapeXml(input.title)}</h1>`
    : `<p class="words">${escapeXml(page.text)}</p>
  <p class="folio" style="font-weight: bold; position: fixed">${i}</p>`;
  return `${XML_DECLARATION}<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
<head>
  <meta charset="UTF-8"/>
  <meta name="viewport" content="width=${PICTURE_PAGE_SIZE.width}, height=${PICTURE_PAGE_SIZE.height}"/>
  <title>${escapeXml(cover ? input.title : `${input.title}, page ${i}`)}</title>
  <link rel="stylesheet" type="text/css" href="styles.css"/>
</head>
<body class="${cover ? 'cover' : 'page'}" style="background-color: #fffdf6">
  <img class="picture" src="${pictureFile(i)}" alt="${escapeXml(page.alt)}"/>
  ${words}
</body>
</html>
`;
}

export function buildFixedLayoutEpub(input: FixedLayoutInput): Buffer {
  if (input.pages.length === 0) throw new RangeError('A picture book needs a page');
  const lang = escapeXml(input.language);
  const items = input.pages
    .map(
      (_, i) =>
        `    <item id="p${i}" href="${pageFile(i)}" media-type="application/xhtml+xml"/>\n    <item id="i${i}" href="${pictureFile(i)}" media-type="image/svg+xml"/>`,
    )
    .join('\n');
  // The cover by itself in the middle; then left and right pages, the back cover last.
  const sideOf = (i: number) =>
    i === 0 ? 'rendition:page-spread-center' : i % 2 ? 'page-spread-left' : 'page-spread-right';
  const spine = [
    ...input.pages.map((_, i) => `    <itemref idref="p${i}" properties="${sideOf(i)}"/>`),
    ...(input.backCover
      ? [`    <itemref idref="back" properties="${sideOf(input.pages.length)}"/>`]
      : []),
  ].join('\n');
  const opf = `${XML_DECLARATION}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="${lang}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="pub-id">${escapeXml(input.identifier)}</dc:identifier>
    <dc:title>${escapeXml(input.title)}</dc:title>
    <dc:creator>${escapeXml(input.author)}</dc:creator>
    <dc:language>${lang}</dc:language>
    <meta property="dcterms:modified">${MODIFIED}</meta>
    <meta property="rendition:layout">pre-paginated</meta>
    <meta property="rendition:spread">landscape</meta>${
      input.accessibilityMetadata === false
        ? ''
        : `
    <meta property="schema:accessMode">textual</meta>
    <meta property="schema:accessMode">visual</meta>
    <meta property="schema:accessibilityFeature">alternativeText</meta>
    <meta property="schema:accessibilityHazard">none</meta>
    <meta property="schema:accessibilitySummary">Each picture has a text description; the words of every page are text.</meta>`
    }
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="css" href="styles.css" media-type="text/css"/>
${items}${input.backCover ? `\n    <item id="back" href="${BACK_COVER_FILE}" media-type="image/svg+xml"/>` : ''}
  </manifest>
  <spine>
${spine}
  </spine>
</package>
`;
  const toc = [
    ...input.pages.map(
      (_, i) =>
        `      <li><a href="${pageFile(i)}">${escapeXml(i === 0 ? 'Cover' : `Page ${i}`)}</a></li>`,
    ),
    ...(input.backCover ? [`      <li><a href="${BACK_COVER_FILE}">Back cover</a></li>`] : []),
  ].join('\n');
  const nav = `${XML_DECLARATION}<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
<head><meta charset="UTF-8"/><title>${escapeXml(input.title)}</title></head>
<body>
  <nav epub:type="toc" id="toc"><h1>Contents</h1><ol>
${toc}
  </ol></nav>
</body>
</html>
`;
  return createZip(
    [
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: `${XML_DECLARATION}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>\n`,
      },
      { name: 'OEBPS/content.opf', data: opf },
      { name: 'OEBPS/nav.xhtml', data: nav },
      { name: 'OEBPS/styles.css', data: STYLESHEET },
      ...input.pages.flatMap((page, i) => [
        { name: `OEBPS/${pageFile(i)}`, data: pageXhtml(input, page, i, i === 0) },
        { name: `OEBPS/${pictureFile(i)}`, data: picture(page, i) },
      ]),
      ...(input.backCover
        ? [{ name: `OEBPS/${BACK_COVER_FILE}`, data: backCoverSvg(input, input.backCover) }]
        : []),
    ],
    { modified: new Date(MODIFIED) },
  );
}
