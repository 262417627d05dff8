import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildEpub, type EpubInput } from './epub.ts';
import { readZip } from './zip.ts';

const hasUnzip = spawnSync('unzip', ['-v']).status === 0;
const hasPython = spawnSync('python3', ['--version']).status === 0;
// Debian ships epubcheck as a bare jar, which only runs as a command where binfmt is set up.
function findEpubcheck(): string[] | null {
  for (const command of [['epubcheck'], ['java', '-jar', '/usr/share/java/epubcheck.jar']]) {
    const [bin = '', ...args] = command;
    const probe = spawnSync(bin, [...args, '--version'], { encoding: 'utf8' });
    if (`${probe.stdout}${probe.stderr}`.includes('EPUBCheck v')) return command;
  }
  return null;
}
const epubcheck = findEpubcheck();

function withTempFile<T>(data: Buffer, name: string, run: (file: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-epub-'));
  try {
    const file = join(dir, name);
    writeFileSync(file, data);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const input: EpubInput = {
  title: 'Introduction to Linear Algebra',
  author: 'Amina Osei',
  language: 'en',
  identifier: '978-0-306-40615-7',
  publisher: 'Northfield Academic Press',
  chapters: [
    { title: 'Vectors', paragraphs: ['A vector has magnitude & direction.', 'Second paragraph.'] },
    { title: 'Matrices <and> "Maps"', paragraphs: ['Rows × columns.'] },
    { title: 'Determinants', paragraphs: [] },
  ],
};

const epub = buildEpub(input);
const entries = readZip(epub);
const file = (name: string): string => {
  const entry = entries.find((e) => e.name === name);
  if (!entry) throw new Error(`missing ${name}`);
  return entry.data.toString('utf8');
};

describe('buildEpub', () => {
  it('starts with an uncompressed mimetype entry, as EPUB readers sniff for it', () => {
    expect(entries[0]?.name).toBe('mimetype');
    expect(entries[0]?.method).toBe(0);
    expect(entries[0]?.offset).toBe(0);
    expect(epub.toString('ascii', 30, 38)).toBe('mimetype');
    expect(epub.toString('ascii', 38, 58)).toBe('application/epub+zip');
  });

  it('contains the container, package, navigation and one file per chapter', () => {
    expect(entries.map((e) => e.name)).toEqual([
      'mimetype',
      'META-INF/container.xml',
      'OEBPS/content.opf',
      'OEBPS/nav.xhtml',
      'OEBPS/styles.css',
      'OEBPS/chapter-001.xhtml',
      'OEBPS/chapter-002.xhtml',
      'OEBPS/chapter-003.xhtml',
    ]);
    expect(file('META-INF/container.xml')).toContain('full-path="OEBPS/content.opf"');
  });

  it('writes the required Dublin Core metadata and a second-precision dcterms:modified', () => {
    const opf = file('OEBPS/content.opf');
    expect(opf).toContain('<dc:identifier id="pub-id">urn:isbn:9780306406157</dc:identifier>');
    expect(opf).toContain('<dc:title>Introduction to Linear Algebra</dc:title>');
    expect(opf).toContain('<dc:creator id="creator">Amina Osei</dc:creator>');
    expect(opf).toContain('<dc:language>en</dc:language>');
    expect(opf).toContain('<meta property="dcterms:modified">2024-01-01T00:00:00Z</meta>');
  });

  it('declares schema.org accessibility metadata and EPUB Accessibility conformance', () => {
    const opf = file('OEBPS/content.opf');
    for (const expected of [
      '<meta property="schema:accessMode">textual</meta>',
      '<meta property="schema:accessibilityFeature">tableOfContents</meta>',
      '<meta property="schema:accessibilityFeature">readingOrder</meta>',
      '<meta property="schema:accessibilityFeature">structuralNavigation</meta>',
      '<meta property="schema:accessibilityHazard">none</meta>',
      '<meta property="dcterms:conformsTo">EPUB Accessibility 1.1 - WCAG 2.1 Level AA</meta>',
    ]) {
      expect(opf).toContain(expected);
    }
    expect(opf).toMatch(/<meta property="schema:accessibilitySummary">[^<]{20,}<\/meta>/);
  });

  it('lists every chapter in the manifest, the spine and the table of contents, in order', () => {
    const opf = file('OEBPS/content.opf');
    const nav = file('OEBPS/nav.xhtml');
    expect(opf).toContain('properties="nav"');
    expect(opf.match(/<itemref idref="([^"]+)"/g)).toEqual([
      '<itemref idref="chapter-001"',
      '<itemref idref="chapter-002"',
      '<itemref idref="chapter-003"',
    ]);
    expect(nav).toContain('<nav epub:type="toc"');
    expect(nav.match(/href="chapter-\d{3}\.xhtml"/g)).toEqual([
      'href="chapter-001.xhtml"',
      'href="chapter-002.xhtml"',
      'href="chapter-003.xhtml"',
      'href="chapter-001.xhtml"',
    ]);
  });

  it('escapes chapter titles and paragraphs', () => {
    expect(file('OEBPS/chapter-001.xhtml')).toContain(
      '<p>A vector has magnitude &amp; direction.</p>',
    );
    expect(file('OEBPS/chapter-002.xhtml')).toContain('Matrices &lt;and&gt; &quot;Maps&quot;</h1>');
    expect(file('OEBPS/nav.xhtml')).toContain('Matrices &lt;and&gt; &quot;Maps&quot;</a>');
  });

  it('marks each chapter with its language and a labelled heading', () => {
    const chapter = file('OEBPS/chapter-001.xhtml');
    expect(chapter).toContain('xml:lang="en" lang="en"');
    expect(chapter).toContain('aria-labelledby="chapter-001-title"');
    expect(chapter).toContain('<h1 id="chapter-001-title">Vectors</h1>');
  });

  it('uses a non-ISBN identifier verbatim', () => {
    const opf = readZip(
      buildEpub({ ...input, identifier: 'urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427' }),
    )
      .find((e) => e.name === 'OEBPS/content.opf')
      ?.data.toString();
    expect(opf).toContain('>urn:uuid:1b4e28ba-2fa1-11d2-883f-0016d3cca427</dc:identifier>');
  });

  it('is byte-for-byte deterministic', () => {
    expect(buildEpub(input).equals(epub)).toBe(true);
  });

  it('refuses a book without chapters or with a malformed language', () => {
    expect(() => buildEpub({ ...input, chapters: [] })).toThrow(RangeError);
    expect(() => buildEpub({ ...input, language: 'English' })).toThrow(RangeError);
    expect(() => buildEpub({ ...input, identifier: '  ' })).toThrow(RangeError);
  });

  it.skipIf(!hasUnzip)('passes unzip -t, with mimetype listed first and stored', () => {
    withTempFile(epub, 'book.epub', (path) => {
      const test = spawnSync('unzip', ['-t', path], { encoding: 'utf8' });
      expect(test.stdout).toContain('No errors detected');
      const listing = spawnSync('unzip', ['-v', path], { encoding: 'utf8' }).stdout;
      const firstEntry = listing.split('\n').find((line) => /\s(Stored|Defl:\w)\s/.test(line));
      expect(firstEntry).toMatch(/Stored.*\smimetype$/);
    });
  });

  it.skipIf(!hasPython)('contains only well-formed XML documents', () => {
    for (const entry of entries.filter((e) => /\.(xml|opf|xhtml)$/.test(e.name))) {
      const result = spawnSync(
        'python3',
        ['-c', 'import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read())'],
        { input: entry.data },
      );
      expect(result.status, `${entry.name}: ${result.stderr}`).toBe(0);
    }
  });

  it.skipIf(!epubcheck)(
    'passes epubcheck without errors or warnings',
    () => {
      const [bin = '', ...args] = epubcheck ?? [];
      withTempFile(epub, 'book.epub', (path) => {
        const result = spawnSync(bin, [...args, path], { encoding: 'utf8' });
        expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
        expect(`${result.stdout}${result.stderr}`).not.toMatch(/WARNING|ERROR|FATAL/);
      });
      // A JVM start on a busy 2-core machine takes far longer than a unit test.
    },
    180_000,
  );
});
