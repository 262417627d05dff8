// Builds small but genuinely valid EPUB 3 files for seed products, so the reader, downloads
// and accessibility metadata paths are exercised with real files rather than placeholders.
import { isValidIsbn13, normalizeIdentifier } from '#domain/catalog/isbn.ts';
import { deobfuscateFont, IDPF_OBFUSCATION } from '#domain/reading/font-obfuscation.ts';
import { escapeXml } from './xml.ts';
import { createZip } from './zip.ts';

export type EpubChapter = {
  title: string;
  paragraphs: string[];
  /** XHTML written after the paragraphs as it is (our own seed content: maths, drawings, notes). */
  xhtml?: string;
};

export type EpubInput = {
  title: string;
  author: string;
  /** BCP 47 tag, e.g. "en" or "en-US". */
  language: string;
  /** An ISBN-13 becomes "urn:isbn:…"; anything else is used verbatim. */
  identifier: string;
  chapters: EpubChapter[];
  publisher?: string;
  description?: string;
  accessibilitySummary?: string;
  /**
   * schema:accessibilityFeature values (EPUB Accessibility 1.1 §2.2); by default what every
   * book built here has: a table of contents, a reading order and headings.
   */
  accessibilityFeatures?: string[];
  /** Written as dcterms:modified; defaults to a fixed date so output is reproducible. */
  modified?: Date;
  /**
   * Files the stylesheet names (issue 16): fonts and pictures, paths under OEBPS/. A font is
   * obfuscated as publishers ship theirs (IDPF, listed in META-INF/encryption.xml) unless
   * `obfuscate` is false.
   */
  resources?: { href: string; mediaType: string; data: Buffer | string; obfuscate?: boolean }[];
  /** Rules written after the book's own stylesheet (@font-face, backgrounds…). */
  stylesheet?: string;
};

const DEFAULT_MODIFIED = new Date(Date.UTC(2024, 0, 1, 0, 0, 0));
const DEFAULT_SUMMARY =
  'This publication meets WCAG 2.1 Level AA. It contains text only, with a table of contents, ' +
  'a logical reading order and headings for every chapter, so it works with screen readers, ' +
  'text-to-speech and reflowable display settings.';
const DEFAULT_FEATURES = ['tableOfContents', 'readingOrder', 'structuralNavigation'];
const LANGUAGE_TAG = /^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/;

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

const CONTAINER_XML = `${XML_DECLARATION}<container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
  <rootfiles>
    <rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/>
  </rootfiles>
</container>
`;

const STYLESHEET = `body { font-family: serif; line-height: 1.5; margin: 0 5%; }
h1 { font-family: sans-serif; line-height: 1.2; margin: 1.5em 0 1em; }
p { margin: 0 0 0.8em; text-indent: 0; }
nav ol { list-style: none; padding-left: 0; }
.worked-example { border-left: 4px solid #1d4e89; padding-left: 1em; color: #1a2a3a; }
`;

const chapterFile = (index: number): string =>
  `chapter-${String(index + 1).padStart(3, '0')}.xhtml`;
const chapterId = (index: number): string => `chapter-${String(index + 1).padStart(3, '0')}`;

function packageIdentifier(identifier: string): string {
  const trimmed = identifier.trim();
  if (!trimmed) throw new RangeError('An EPUB needs a non-empty identifier');
  return isValidIsbn13(trimmed) ? `urn:isbn:${normalizeIdentifier(trimmed)}` : trimmed;
}

function xhtmlDocument(language: string, title: string, body: string): string {
  const lang = escapeXml(language);
  return `${XML_DECLARATION}<!DOCTYPE html>
<html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops" xml:lang="${lang}" lang="${lang}">
<head>
  <meta charset="UTF-8"/>
  <title>${escapeXml(title)}</title>
  <link rel="stylesheet" type="text/css" href="styles.css"/>
</head>
<body>
${body}
</body>
</html>
`;
}

function chapterXhtml(language: string, chapter: EpubChapter, index: number): string {
  const headingId = `${chapterId(index)}-title`;
  const paragraphs = chapter.paragraphs.map((p) => `    <p>${escapeXml(p)}</p>`).join('\n');
  const body = `  <section epub:type="chapter" role="doc-chapter" aria-labelledby="${headingId}">
    <h1 id="${headingId}">${escapeXml(chapter.title)}</h1>
${paragraphs}${chapter.xhtml ? `\n${chapter.xhtml}` : ''}
  </section>`;
  return xhtmlDocument(language, chapter.title, body);
}

function navXhtml(input: EpubInput): string {
  const items = input.chapters
    .map((c, i) => `      <li><a href="${chapterFile(i)}">${escapeXml(c.title)}</a></li>`)
    .join('\n');
  const body = `  <nav epub:type="toc" role="doc-toc" id="toc" aria-labelledby="toc-title">
    <h1 id="toc-title">Contents</h1>
    <ol>
${items}
    </ol>
  </nav>
  <nav epub:type="landmarks" id="landmarks" hidden="hidden" aria-label="Landmarks">
    <ol>
      <li><a epub:type="bodymatter" href="${chapterFile(0)}">Start of content</a></li>
    </ol>
  </nav>`;
  return xhtmlDocument(input.language, input.title, body);
}

function contentOpf(input: EpubInput, modified: string): string {
  const optional = [
    input.publisher ? `    <dc:publisher>${escapeXml(input.publisher)}</dc:publisher>` : null,
    input.description
      ? `    <dc:description>${escapeXml(input.description)}</dc:description>`
      : null,
  ].filter((line): line is string => line !== null);
  const manifestChapters = input.chapters
    .map(
      (_, i) =>
        `    <item id="${chapterId(i)}" href="${chapterFile(i)}" media-type="application/xhtml+xml"/>`,
    )
    .join('\n');
  const spine = input.chapters.map((_, i) => `    <itemref idref="${chapterId(i)}"/>`).join('\n');

  return `${XML_DECLARATION}<package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="pub-id" xml:lang="${escapeXml(input.language)}">
  <metadata xmlns:dc="http://purl.org/dc/elements/1.1/">
    <dc:identifier id="pub-id">${escapeXml(packageIdentifier(input.identifier))}</dc:identifier>
    <dc:title>${escapeXml(input.title)}</dc:title>
    <dc:creator id="creator">${escapeXml(input.author)}</dc:creator>
    <meta refines="#creator" property="role" scheme="marc:relators">aut</meta>
    <dc:language>${escapeXml(input.language)}</dc:language>
${optional.join('\n')}${optional.length ? '\n' : ''}    <meta property="dcterms:modified">${modified}</meta>
    <meta property="schema:accessMode">textual</meta>
    <meta property="schema:accessModeSufficient">textual</meta>
${(input.accessibilityFeatures ?? DEFAULT_FEATURES)
  .map((feature) => `    <meta property="schema:accessibilityFeature">${escapeXml(feature)}</meta>`)
  .join('\n')}
    <meta property="schema:accessibilityHazard">none</meta>
    <meta property="schema:accessibilitySummary">${escapeXml(input.accessibilitySummary ?? DEFAULT_SUMMARY)}</meta>
    <meta property="dcterms:conformsTo">EPUB Accessibility 1.1 - WCAG 2.1 Level AA</meta>
    <meta property="a11y:certifiedBy">${escapeXml(input.publisher ?? 'Shelfmark')}</meta>
  </metadata>
  <manifest>
    <item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
    <item id="css" href="styles.css" media-type="text/css"/>
${manifestChapters}${(input.resources ?? [])
  .map(
    (r, i) =>
      `\n    <item id="resource-${i + 1}" href="${escapeXml(r.href)}" media-type="${escapeXml(r.mediaType)}"/>`,
  )
  .join('')}
  </manifest>
  <spine>
${spine}
  </spine>
</package>
`;
}

const isFont = (mediaType: string) => mediaType.startsWith('font/');

/** META-INF/encryption.xml naming the obfuscated fonts, or null when there are none. */
function encryptionXml(hrefs: string[]): string | null {
  if (hrefs.length === 0) return null;
  const entries = hrefs
    .map(
      (href) => `  <enc:EncryptedData>
    <enc:EncryptionMethod Algorithm="${IDPF_OBFUSCATION}"/>
    <enc:CipherData><enc:CipherReference URI="OEBPS/${escapeXml(href)}"/></enc:CipherData>
  </enc:EncryptedData>`,
    )
    .join('\n');
  return `${XML_DECLARATION}<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#">
${entries}
</encryption>
`;
}

export function buildEpub(input: EpubInput): Buffer {
  if (input.chapters.length === 0) throw new RangeError('An EPUB needs at least one chapter');
  if (!LANGUAGE_TAG.test(input.language)) {
    throw new RangeError(`Not a BCP 47 language tag: ${JSON.stringify(input.language)}`);
  }
  // EPUB requires CCYY-MM-DDThh:mm:ssZ, i.e. ISO 8601 without milliseconds.
  const modified = (input.modified ?? DEFAULT_MODIFIED).toISOString().replace(/\.\d{3}Z$/, 'Z');

  const resources = input.resources ?? [];
  const obfuscated = resources.filter((r) => isFont(r.mediaType) && r.obfuscate !== false);
  const encryption = encryptionXml(obfuscated.map((r) => r.href));
  const identifier = packageIdentifier(input.identifier);
  return createZip(
    [
      // Must be first and stored so readers can identify the file from its first bytes.
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      { name: 'META-INF/container.xml', data: CONTAINER_XML },
      ...(encryption ? [{ name: 'META-INF/encryption.xml', data: encryption }] : []),
      { name: 'OEBPS/content.opf', data: contentOpf(input, modified) },
      { name: 'OEBPS/nav.xhtml', data: navXhtml(input) },
      { name: 'OEBPS/styles.css', data: STYLESHEET + (input.stylesheet ?? '') },
      ...resources.map((r) => ({
        name: `OEBPS/${r.href}`,
        // The XOR that undoes the obfuscation also does it.
        data: obfuscated.includes(r)
          ? deobfuscateFont(Buffer.from(r.data), IDPF_OBFUSCATION, identifier)!
          : r.data,
      })),
      ...input.chapters.map((chapter, i) => ({
        name: `OEBPS/${chapterFile(i)}`,
        data: chapterXhtml(input.language, chapter, i),
      })),
    ],
    { modified: input.modified ?? DEFAULT_MODIFIED },
  );
}
