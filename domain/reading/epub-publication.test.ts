import { describe, expect, it } from 'vitest';
import { buildEpub } from '#db/seed/content/epub.ts';
import { createZip } from '#db/seed/content/zip.ts';
import { openEpub } from './epub-publication.ts';
import { InvalidArchive, openZip } from './zip-archive.ts';

const book = buildEpub({
  title: 'Cells & Systems',
  author: 'A. Author',
  language: 'en',
  identifier: 'urn:test:1',
  chapters: [
    { title: 'Chapter 1: Cells', paragraphs: ['The cell is the unit of life.'] },
    { title: 'Chapter 2: Systems', paragraphs: ['Systems of cells.', 'More text.'] },
  ],
});

const urls = { partHref: () => '#', imageUrl: (p: string) => `/img/${p}` };

describe('openEpub (issue 5: the reader shows EPUB text rendered on the server)', () => {
  it('reads the title, the spine and the table of contents of a real EPUB 3', () => {
    const epub = openEpub(book);
    expect(epub.title).toBe('Cells & Systems');
    expect(epub.parts.map((p) => [p.path, p.title])).toEqual([
      ['OEBPS/chapter-001.xhtml', 'Chapter 1: Cells'],
      ['OEBPS/chapter-002.xhtml', 'Chapter 2: Systems'],
    ]);
    expect(epub.toc.map((e) => [e.label, e.part, e.fragment])).toEqual([
      ['Chapter 1: Cells', 0, null],
      ['Chapter 2: Systems', 1, null],
    ]);
  });

  it("issue 13: reads the book's language and its page direction, when given", () => {
    expect(openEpub(book)).toMatchObject({ language: 'en', pageProgression: null });
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title><dc:language> ar </dc:language><dc:language>en</dc:language></metadata><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine page-progression-direction="rtl"><itemref idref="a"/></spine></package>`;
    const data = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
      },
      { name: 'content.opf', data: opf },
      { name: 'a.xhtml', data: '<html><body><p>نص</p></body></html>' },
    ]);
    expect(openEpub(data)).toMatchObject({ language: 'ar', pageProgression: 'rtl' });
  });

  it('issue 16: SVG pictures of the book are images the reader shows, in <img> and in a drawing', () => {
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata><manifest><item id="a" href="text/a.xhtml" media-type="application/xhtml+xml"/><item id="f" href="img/fig.svg" media-type="image/svg+xml"/><item id="s" href="img/s.js" media-type="application/javascript"/></manifest><spine><itemref idref="a"/></spine></package>`;
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="5" height="5"/></svg>';
    const data = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
      },
      { name: 'OEBPS/content.opf', data: opf },
      {
        name: 'OEBPS/text/a.xhtml',
        data: '<html><body><img src="../img/fig.svg" alt="Figure 1"/><svg><image href="../img/fig.svg"/><image href="../img/s.js"/></svg></body></html>',
      },
      { name: 'OEBPS/img/fig.svg', data: svg },
      { name: 'OEBPS/img/s.js', data: 'alert(1)' },
    ]);
    const epub = openEpub(data);
    expect(epub.readResource('OEBPS/img/fig.svg')).toEqual({
      data: Buffer.from(svg),
      mediaType: 'image/svg+xml',
    });
    expect(epub.readResource('OEBPS/img/s.js')).toBeNull();
    expect(epub.renderPart(0, urls).html).toBe(
      '<img alt="Figure 1" src="/img/OEBPS/img/fig.svg"><svg><image href="/img/OEBPS/img/fig.svg"></image></svg>',
    );
  });

  it('renders each chapter as safe HTML with its text', () => {
    const part = openEpub(book).renderPart(1, urls);
    expect(part.html).toContain('<h2 id="p1-chapter-002-title">Chapter 2: Systems</h2>');
    expect(part.text).toContain('Systems of cells.');
    expect(() => openEpub(book).renderPart(2, urls)).toThrow(RangeError);
  });

  it('an EPUB 2 table of contents (NCX) is read when there is no nav document', () => {
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Old</dc:title></metadata><manifest><item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="text/a.html" media-type="application/xhtml+xml"/><item id="b" href="text/b.html" media-type="application/xhtml+xml"/></manifest><spine toc="ncx"><itemref idref="a"/><itemref idref="b"/></spine></package>`;
    const ncx = `<?xml version="1.0"?><ncx><navMap><navPoint id="1"><navLabel><text>Part A</text></navLabel><content src="text/a.html"/><navPoint id="2"><navLabel><text>Inside B</text></navLabel><content src="text/b.html#s1"/></navPoint></navPoint></navMap></ncx>`;
    const data = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
      },
      { name: 'content.opf', data: opf },
      { name: 'toc.ncx', data: ncx },
      { name: 'text/a.html', data: '<html><body><p>A</p></body></html>' },
      { name: 'text/b.html', data: '<html><body><p id="s1">B</p></body></html>' },
    ]);
    const epub = openEpub(data);
    expect(epub.title).toBe('Old');
    expect(epub.toc).toEqual([
      {
        label: 'Part A',
        part: 0,
        fragment: null,
        children: [{ label: 'Inside B', part: 1, fragment: 's1', children: [] }],
      },
    ]);
  });

  it('issue 13: reads the pages of the printed edition from the nav page-list, else the NCX', () => {
    const opf = (nav: boolean) =>
      `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata/><manifest>${nav ? '<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>' : ''}<item id="ncx" href="toc.ncx" media-type="application/x-dtbncx+xml"/><item id="a" href="text/a.xhtml" media-type="application/xhtml+xml"/><item id="b" href="text/b.xhtml" media-type="application/xhtml+xml"/></manifest><spine toc="ncx"><itemref idref="a"/><itemref idref="b"/></spine></package>`;
    const nav = `<html xmlns:epub="http://www.idpf.org/2007/ops"><body><nav epub:type="toc"><ol><li><a href="text/a.xhtml">A</a></li></ol></nav><nav epub:type="page-list" hidden=""><ol><li><a href="text/a.xhtml">i</a></li><li><a href="text/a.xhtml#p1"> 1 </a></li><li><a href="text/b.xhtml#p2">2</a></li><li><a href="elsewhere.xhtml#p3">3</a></li></ol></nav></body></html>`;
    const ncx = `<?xml version="1.0"?><ncx><navMap/><pageList><pageTarget type="normal" value="5"><navLabel><text>5</text></navLabel><content src="text/b.xhtml#p5"/></pageTarget></pageList></ncx>`;
    const epub = (withNav: boolean) =>
      createZip([
        { name: 'mimetype', data: 'application/epub+zip', compress: false },
        {
          name: 'META-INF/container.xml',
          data: '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
        },
        { name: 'content.opf', data: opf(withNav) },
        { name: 'nav.xhtml', data: nav },
        { name: 'toc.ncx', data: ncx },
        { name: 'text/a.xhtml', data: '<html><body><p id="p1">A</p></body></html>' },
        { name: 'text/b.xhtml', data: '<html><body><p id="p2">B</p></body></html>' },
      ]);
    expect(openEpub(epub(true)).pageList).toEqual([
      { label: 'i', part: 0, anchor: null },
      { label: '1', part: 0, anchor: 'p0-p1' },
      { label: '2', part: 1, anchor: 'p1-p2' },
    ]);
    expect(openEpub(epub(false)).pageList).toEqual([{ label: '5', part: 1, anchor: 'p1-p5' }]);
    expect(openEpub(book).pageList).toEqual([]);
  });

  it('a file that is not an EPUB is refused, not half read', () => {
    expect(() => openEpub(Buffer.from('%PDF-1.7 not a zip'))).toThrow(InvalidArchive);
    const noContainer = createZip([{ name: 'mimetype', data: 'application/epub+zip' }]);
    expect(() => openEpub(noContainer)).toThrow(InvalidArchive);
  });

  it('issue 16: the publisher’s fonts are served as the publisher made them, obfuscated ones restored; encrypted ones never', () => {
    // A font's first bytes, long enough for both obfuscations (1040 and 1024 bytes).
    const font = Buffer.from(Array.from({ length: 3000 }, (_, i) => (i * 7) % 251));
    const withFonts = buildEpub({
      title: 'Typeset',
      author: 'A. Author',
      language: 'en',
      identifier: '9798900000017',
      chapters: [{ title: 'One', paragraphs: ['Text.'] }],
      resources: [
        { href: 'fonts/Body.ttf', mediaType: 'font/ttf', data: font },
        { href: 'fonts/Plain.woff2', mediaType: 'font/woff2', data: font, obfuscate: false },
        { href: 'images/rule.svg', mediaType: 'image/svg+xml', data: '<svg/>' },
      ],
      stylesheet: '@font-face { font-family: Body; src: url(fonts/Body.ttf) }',
    });
    const epub = openEpub(withFonts);
    // In the archive, the first 1040 bytes are not the font's (IDPF, keyed by urn:isbn:…).
    const stored = openZip(withFonts).read('OEBPS/fonts/Body.ttf')!;
    expect(stored.subarray(0, 1040).equals(font.subarray(0, 1040))).toBe(false);
    expect(stored.subarray(1040).equals(font.subarray(1040))).toBe(true);
    expect(epub.fonts).toEqual(new Set(['OEBPS/fonts/Body.ttf', 'OEBPS/fonts/Plain.woff2']));
    expect(epub.readResource('OEBPS/fonts/Body.ttf')).toEqual({
      data: font,
      mediaType: 'font/ttf',
    });
    expect(epub.readResource('OEBPS/fonts/Plain.woff2')).toEqual({
      data: font,
      mediaType: 'font/woff2',
    });
    expect(epub.resourcePath('OEBPS/styles.css', 'fonts/Body.ttf', 'font')).toBe(
      'OEBPS/fonts/Body.ttf',
    );
    expect(epub.resourcePath('OEBPS/styles.css', 'fonts/Body.ttf', 'image')).toBeNull();
    expect(epub.resourcePath('OEBPS/styles.css', 'images/rule.svg', 'image')).toBe(
      'OEBPS/images/rule.svg',
    );
    expect(epub.resourcePath('OEBPS/styles.css', '../../x.ttf', 'font')).toBeNull();
    expect(epub.styleSheets()).toEqual([
      { path: 'OEBPS/styles.css', text: expect.stringContaining('@font-face { font-family: Body') },
    ]);
  });

  it('issue 16: Adobe-obfuscated fonts are restored with the book’s UUID; a font under any other algorithm is never served', () => {
    const font = Buffer.from(Array.from({ length: 2000 }, (_, i) => (i * 13) % 256));
    const uuid = 'urn:uuid:0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0';
    const key = Buffer.from('0f1e2d3c4b5a69788796a5b4c3d2e1f0', 'hex');
    const adobe = Buffer.from(font);
    for (let i = 0; i < 1024; i += 1) adobe[i] = adobe[i]! ^ key[i % 16]!;
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="2.0" unique-identifier="uid"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="isbn">9780000000002</dc:identifier><dc:identifier id="uid"> ${uuid} </dc:identifier><dc:title>T</dc:title></metadata><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="f" href="f.otf" media-type="application/vnd.ms-opentype"/><item id="g" href="g.ttf" media-type="application/octet-stream"/></manifest><spine><itemref idref="a"/></spine></package>`;
    const encryption = `<encryption xmlns="urn:oasis:names:tc:opendocument:xmlns:container" xmlns:enc="http://www.w3.org/2001/04/xmlenc#"><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://ns.adobe.com/pdf/enc#RC"/><enc:CipherData><enc:CipherReference URI="OEBPS/f.otf"/></enc:CipherData></enc:EncryptedData><enc:EncryptedData><enc:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#aes128-cbc"/><enc:CipherData><enc:CipherReference URI="OEBPS/g.ttf"/></enc:CipherData></enc:EncryptedData></encryption>`;
    const data = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="OEBPS/content.opf"/></rootfiles></container>',
      },
      { name: 'META-INF/encryption.xml', data: encryption },
      { name: 'OEBPS/content.opf', data: opf },
      { name: 'OEBPS/a.xhtml', data: '<html><body><p>x</p></body></html>' },
      { name: 'OEBPS/f.otf', data: adobe },
      { name: 'OEBPS/g.ttf', data: font },
    ]);
    const epub = openEpub(data);
    expect(epub.readResource('OEBPS/f.otf')).toEqual({ data: font, mediaType: 'font/otf' });
    // A font by its extension, whatever its media type says; but encrypted: not served.
    expect(epub.fonts.has('OEBPS/g.ttf')).toBe(true);
    expect(epub.readResource('OEBPS/g.ttf')).toBeNull();
  });

  it('an href listed twice, as a picture and as a page, is served only as the picture (review, session 20)', () => {
    const opf = `<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>T</dc:title></metadata><manifest><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/><item id="p" href="x.html" media-type="image/png"/><item id="h" href="x.html" media-type="text/html"/></manifest><spine><itemref idref="a"/></spine></package>`;
    const data = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      {
        name: 'META-INF/container.xml',
        data: '<container><rootfiles><rootfile full-path="content.opf"/></rootfiles></container>',
      },
      { name: 'content.opf', data: opf },
      { name: 'a.xhtml', data: '<html><body><p>x</p></body></html>' },
      { name: 'x.html', data: '<script>alert(1)</script>' },
    ]);
    expect(openEpub(data).readResource('x.html')?.mediaType).toBe('image/png');
  });
});
