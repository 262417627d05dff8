import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { buildEpub } from '#db/seed/content/epub.ts';
import { createZip } from '#db/seed/content/zip.ts';
import { checkEpub, checkPdf } from './book-file-check.ts';
import { epubAccessibilityRows, packageMetadata } from './epub-accessibility.ts';

// Issue 15, "Book files and covers": each EPUB and PDF is checked on its way in, and the
// EPUB's package gives the product page its accessibility metadata (W3C display guide 2.1,
// EPUB techniques).

const epub = () =>
  buildEpub({
    title: 'Organic Chemistry',
    author: 'José Núñez',
    language: 'en',
    identifier: '9780306406157',
    publisher: 'Benetech',
    chapters: [{ title: 'Atoms', paragraphs: ['Carbon bonds four ways.'] }],
  });

/** A minimal valid EPUB 3's entries, changed by `edit`, zipped. */
function remade(
  edit: (entries: { name: string; data: string; compress?: boolean }[]) => typeof entries,
): Buffer {
  const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">
<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">x</dc:identifier><dc:title>T</dc:title><dc:language>en</dc:language></metadata>
<manifest><item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest>
<spine><itemref idref="c"/></spine></package>`;
  const nav = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>T</title></head><body><nav epub:type="toc"><ol><li><a href="c.xhtml">One</a></li></ol></nav></body></html>`;
  const chapter = `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>One</title></head><body><p>Text.</p></body></html>`;
  const entries = [
    { name: 'mimetype', data: 'application/epub+zip', compress: false },
    {
      name: 'META-INF/container.xml',
      data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
    },
    { name: 'OEBPS/content.opf', data: opf },
    { name: 'OEBPS/nav.xhtml', data: nav },
    { name: 'OEBPS/c.xhtml', data: chapter },
  ];
  return createZip(edit(entries));
}

describe('checking an EPUB', () => {
  it('accepts a valid EPUB 3 and reads its title, language and accessibility metadata', () => {
    const check = checkEpub(epub());
    expect(check.ok).toBe(true);
    if (!check.ok || check.file.kind !== 'epub') return;
    expect(check.file.title).toBe('Organic Chemistry');
    expect(check.file.language).toBe('en');
    expect(check.file.accessibility?.map((r) => r.code)).toEqual([
      'ways-of-reading-visual-adjustments-unknown',
      'ways-of-reading-nonvisual-reading-readable',
      'ways-of-reading-prerecorded-audio-no-metadata',
      'conformance-aa',
      'conformance-certifier',
      'conformance-details-claim',
      'navigation-structural',
      'navigation-toc',
      'rich-content-unknown',
      'hazards-none',
      null,
      'legal-considerations-no-metadata',
    ]);
  });

  it('accepts the minimal EPUB it is compared with', () => {
    expect(checkEpub(remade((e) => e)).ok).toBe(true);
  });

  it('refuses a file that is not a ZIP', () => {
    expect(checkEpub(Buffer.from('not a zip at all'))).toEqual({
      ok: false,
      reason: { message: 'import.file.notZip' },
    });
  });

  it('refuses an EPUB whose mimetype entry is missing or not first', () => {
    const moved = remade(([mimetype, ...rest]) => [...rest, mimetype!]);
    expect(checkEpub(moved)).toMatchObject({
      ok: false,
      reason: { message: 'import.file.mimetype' },
    });
  });

  it('refuses an EPUB without a package document', () => {
    const without = remade((e) => e.filter((x) => x.name !== 'OEBPS/content.opf'));
    expect(checkEpub(without)).toMatchObject({
      ok: false,
      reason: { message: 'import.file.noPackage' },
    });
  });

  it('refuses an encrypted (DRM) EPUB, but not one whose fonts are obfuscated', () => {
    const encryption = (algorithm: string) =>
      `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="${algorithm}"/><enc:CipherData><enc:CipherReference URI="OEBPS/c.xhtml"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const drm = remade((e) => [
      ...e,
      {
        name: 'META-INF/encryption.xml',
        data: encryption('http://www.w3.org/2001/04/xmlenc#aes128-cbc'),
      },
    ]);
    expect(checkEpub(drm)).toMatchObject({
      ok: false,
      reason: { message: 'import.file.encrypted' },
    });
    const fonts = remade((e) => [
      ...e,
      { name: 'META-INF/encryption.xml', data: encryption('http://www.idpf.org/2008/embedding') },
    ]);
    expect(checkEpub(fonts).ok).toBe(true);
    // In single quotes too (review, session 20: only double quotes were read).
    const quoted = remade((e) => [
      ...e,
      {
        name: 'META-INF/encryption.xml',
        data: encryption('http://www.w3.org/2001/04/xmlenc#aes128-cbc').replace(
          /Algorithm="([^"]*)"/,
          "Algorithm='$1'",
        ),
      },
    ]);
    expect(checkEpub(quoted)).toMatchObject({ ok: false });
  });

  it('refuses an EPUB without a table of contents', () => {
    const noToc = remade((e) =>
      e.map((x) =>
        x.name === 'OEBPS/nav.xhtml'
          ? { ...x, data: x.data.replace(/<nav[\s\S]*<\/nav>/, '<p>No toc</p>') }
          : x,
      ),
    );
    expect(checkEpub(noToc)).toMatchObject({
      ok: false,
      reason: { message: 'import.file.noNavigation' },
    });
  });
});

describe('checking a PDF', () => {
  async function pdf(): Promise<Buffer> {
    const doc = await PDFDocument.create();
    doc.addPage();
    doc.addPage();
    return Buffer.from(await doc.save({ useObjectStreams: false }));
  }

  it('accepts a readable PDF and counts its pages', async () => {
    expect(await checkPdf(await pdf())).toEqual({ ok: true, file: { kind: 'pdf', pageCount: 2 } });
  });

  it('refuses an encrypted PDF', async () => {
    const text = (await pdf()).toString('latin1');
    const encrypted = text.replace(
      /trailer\s*<</,
      'trailer\n<< /Encrypt << /Filter /Standard /V 1 /R 2 /O (owner) /U (user) /P -4 >>',
    );
    expect(encrypted).not.toBe(text);
    expect(await checkPdf(Buffer.from(encrypted, 'latin1'))).toEqual({
      ok: false,
      reason: { message: 'import.file.encrypted' },
    });
  });

  it('refuses a broken PDF and a file that is not one', async () => {
    const whole = await pdf();
    expect(await checkPdf(whole.subarray(0, 40))).toEqual({
      ok: false,
      reason: { message: 'import.file.brokenPdf' },
    });
    expect(await checkPdf(Buffer.from('hello'))).toEqual({
      ok: false,
      reason: { message: 'import.file.notPdf' },
    });
  });
});

describe('EPUB accessibility metadata (W3C display guide 2.1, EPUB techniques)', () => {
  const rows = (metadata: string) =>
    epubAccessibilityRows(packageMetadata(`<package><metadata>${metadata}</metadata></package>`));

  it('says nothing when the package says nothing about accessibility', () => {
    expect(rows('<dc:title>T</dc:title>')).toBeNull();
  });

  it('reads an EPUB Accessibility 1.0 claim from the IDPF address, as a link or a meta', () => {
    const link = rows(
      '<link rel="dcterms:conformsTo" href="http://www.idpf.org/epub/a11y/accessibility-20170105.html#wcag-aa"/><meta property="schema:accessMode">textual</meta>',
    );
    expect(link?.filter((r) => r.subcategory === 'Conformance')).toEqual([
      expect.objectContaining({ code: 'conformance-aa' }),
      expect.objectContaining({
        code: 'conformance-details-claim',
        detail: 'EPUB Accessibility 1.0 - WCAG 2.0 Level AA',
      }),
    ]);
  });

  it('reads EPUB 2 metadata (name and content)', () => {
    const found = rows(
      '<meta name="schema:accessibilityFeature" content="displayTransformability"/><meta name="schema:accessibilityHazard" content="flashing"/>',
    );
    expect(found?.map((r) => r.code)).toContain('ways-of-reading-visual-adjustments-modifiable');
    expect(found?.map((r) => r.code)).toContain('hazards-flashing');
  });

  it('never claims what the package does not say: a visual-only book is not readable aloud, and nothing is invented', () => {
    const found = rows('<meta property="schema:accessMode">visual</meta>');
    expect(found?.map((r) => r.code)).toEqual([
      'ways-of-reading-visual-adjustments-unknown',
      'ways-of-reading-nonvisual-reading-none',
      'ways-of-reading-prerecorded-audio-no-metadata',
      'conformance-no',
      'navigation-no-metadata',
      'rich-content-unknown',
      'hazards-no-metadata',
      'accessibility-summary-no-metadata',
      'legal-considerations-no-metadata',
    ]);
  });

  it('reads the certifier, its credential, date and report, refining the claim', () => {
    const found = rows(`
      <meta property="dcterms:conformsTo" id="claim">EPUB Accessibility 1.1 - WCAG 2.2 Level AAA</meta>
      <meta property="a11y:certifiedBy" id="certifier" refines="#claim">Accessible Books Inc.</meta>
      <meta property="a11y:certifierCredential" refines="#certifier">DAISY Ace Certified</meta>
      <meta property="dcterms:date" refines="#certifier">2024-05-01</meta>
      <link rel="a11y:certifierReport" refines="#certifier" href="https://example.org/report"/>`);
    expect(found?.filter((r) => r.subcategory === 'Conformance')).toEqual([
      expect.objectContaining({ code: 'conformance-aaa' }),
      expect.objectContaining({ code: 'conformance-certifier', detail: 'Accessible Books Inc.' }),
      expect.objectContaining({
        code: 'conformance-certifier-credentials',
        detail: 'DAISY Ace Certified',
      }),
      expect.objectContaining({
        code: 'conformance-details-claim',
        detail: 'EPUB Accessibility 1.1 - WCAG 2.2 Level AAA',
      }),
      expect.objectContaining({
        code: 'conformance-details-certification-info',
        detail: '2024-05-01',
      }),
      expect.objectContaining({
        code: 'conformance-details-certifier-report',
        url: 'https://example.org/report',
      }),
    ]);
  });
});
