import { execFile } from 'node:child_process';
import { PDFDocument } from 'pdf-lib';
import { openEpub } from '#domain/reading/epub-publication.ts';
import { FONT_OBFUSCATIONS } from '#domain/reading/font-obfuscation.ts';
import { localName, xmlTokens } from '#domain/reading/xml-tokens.ts';
import { InvalidArchive, openZip } from '#domain/reading/zip-archive.ts';
import type { MessageWording } from '#domain/shared/wording.ts';
import { epubAccessibilityRows, isFixedLayout, packageMetadata } from './epub-accessibility.ts';
import type { AccessibilityRow } from './onix/accessibility.ts';

// A book file on its way into the catalog (issue 15): an EPUB or a PDF is checked before any
// shopper could buy it, and what the product page needs is read from it. An EPUB must be a
// real OCF container (mimetype first, container.xml, a package with title, language and a
// spine, a navigation document or NCX) that the store's reader opens, and not encrypted; a PDF
// must open, unencrypted. Where Debian's EPUBCheck is installed it runs too.

export type CheckedEpub = {
  kind: 'epub';
  title: string;
  language: string | null;
  /** Pages of the printed edition the EPUB marks (its page list), if any. */
  pageCount: number | null;
  /** The display guide's statements from the package's own metadata; null when it has none. */
  accessibility: AccessibilityRow[] | null;
  /** Fixed layout (rendition:layout pre-paginated): its appearance cannot be modified. */
  fixedLayout: boolean;
  cover: { data: Buffer; mediaType: string } | null;
};
export type CheckedPdf = { kind: 'pdf'; pageCount: number };
export type FileCheck =
  | { ok: true; file: CheckedEpub | CheckedPdf }
  | { ok: false; reason: MessageWording };

const refused = (message: string, values?: Record<string, string | number>): FileCheck => ({
  ok: false,
  reason: values ? { message, values } : { message },
});

/** The package document's path and text, or null. */
function packageDocument(zip: ReturnType<typeof openZip>): { path: string; xml: string } | null {
  const container = zip.readText('META-INF/container.xml');
  if (!container) return null;
  for (const token of xmlTokens(container)) {
    if (token.type === 'open' && localName(token.name) === 'rootfile') {
      const path = token.attrs.get('full-path');
      const xml = path ? zip.readText(path) : null;
      return path && xml ? { path, xml } : null;
    }
  }
  return null;
}

function coverOf(
  zip: ReturnType<typeof openZip>,
  opfPath: string,
  opf: string,
): CheckedEpub['cover'] {
  const base = opfPath.includes('/') ? opfPath.slice(0, opfPath.lastIndexOf('/') + 1) : '';
  let epub2CoverId: string | null = null;
  const items = new Map<string, { href: string; type: string; properties: string }>();
  for (const token of xmlTokens(opf)) {
    if (token.type !== 'open') continue;
    const name = localName(token.name);
    if (name === 'meta' && token.attrs.get('name') === 'cover') {
      epub2CoverId = token.attrs.get('content') ?? null;
    }
    if (name === 'item') {
      const id = token.attrs.get('id');
      const href = token.attrs.get('href');
      if (id && href) {
        items.set(id, {
          href: decodeURIComponent(href),
          type: token.attrs.get('media-type') ?? '',
          properties: token.attrs.get('properties') ?? '',
        });
      }
    }
  }
  const item =
    [...items.values()].find((i) => i.properties.split(/\s+/).includes('cover-image')) ??
    (epub2CoverId ? items.get(epub2CoverId) : undefined);
  if (!item || !/^image\/(jpeg|png|webp|gif)$/.test(item.type)) return null;
  const data = zip.read(base + item.href);
  return data ? { data, mediaType: item.type } : null;
}

export function checkEpub(data: Buffer): FileCheck {
  let zip: ReturnType<typeof openZip>;
  try {
    zip = openZip(data);
  } catch {
    return refused('import.file.notZip');
  }
  // OCF: the first entry is an uncompressed 'mimetype' saying what this is.
  if (
    zip.names()[0] !== 'mimetype' ||
    zip.readText('mimetype')?.trim() !== 'application/epub+zip'
  ) {
    return refused('import.file.mimetype');
  }
  const pkg = packageDocument(zip);
  if (!pkg) return refused('import.file.noPackage');
  const encryption = zip.readText('META-INF/encryption.xml');
  // Obfuscated fonts are allowed (the reader restores them); anything else encrypted is DRM
  // the reader cannot open.
  const algorithms = [
    ...(encryption ?? '').matchAll(
      /<(?:\w+:)?EncryptionMethod[^>]*?Algorithm\s*=\s*(?:"([^"]*)"|'([^']*)')/g,
    ),
  ];
  if (algorithms.some(([, double, single]) => !FONT_OBFUSCATIONS.has(double ?? single ?? ''))) {
    return refused('import.file.encrypted');
  }
  const meta = packageMetadata(pkg.xml);
  let publication: ReturnType<typeof openEpub>;
  try {
    publication = openEpub(data);
  } catch (error) {
    if (error instanceof InvalidArchive) {
      return refused('import.file.brokenEpub', { detail: error.message });
    }
    return refused('import.file.brokenEpub', { detail: 'unreadable' });
  }
  if (!publication.title.trim()) return refused('import.file.noTitle');
  if (!publication.language?.trim()) return refused('import.file.noLanguage');
  if (publication.toc.length === 0) return refused('import.file.noNavigation');
  return {
    ok: true,
    file: {
      kind: 'epub',
      title: publication.title.trim(),
      language: publication.language?.trim() ?? null,
      pageCount: publication.pageList.length > 0 ? publication.pageList.length : null,
      accessibility: epubAccessibilityRows(meta),
      fixedLayout: isFixedLayout(meta),
      cover: coverOf(zip, pkg.path, pkg.xml),
    },
  };
}

export async function checkPdf(data: Buffer): Promise<FileCheck> {
  if (!data.subarray(0, 1024).includes('%PDF-')) return refused('import.file.notPdf');
  try {
    const pdf = await PDFDocument.load(data, { updateMetadata: false });
    const pageCount = pdf.getPageCount();
    if (pageCount === 0) return refused('import.file.brokenPdf');
    return { ok: true, file: { kind: 'pdf', pageCount } };
  } catch (error) {
    if ((error as Error).name === 'EncryptedPDFError' || /encrypted/i.test(String(error))) {
      return refused('import.file.encrypted');
    }
    return refused('import.file.brokenPdf');
  }
}

/**
 * EPUBCheck's verdict where it is installed (Debian's `epubcheck`): null when it passes or is
 * not installed, else its first error.
 */
export function epubcheck(path: string): Promise<MessageWording | null> {
  return new Promise((resolve) => {
    execFile('epubcheck', ['--quiet', path], { timeout: 120_000 }, (error, stdout, stderr) => {
      if (!error) return resolve(null);
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return resolve(null);
      const first = `${stdout}\n${stderr}`
        .split('\n')
        .find((line) => /^(ERROR|FATAL)/.test(line.trim()));
      resolve({
        message: 'import.file.epubcheck',
        values: { detail: (first ?? 'EPUBCheck failed').trim().slice(0, 300) },
      });
    });
  });
}
