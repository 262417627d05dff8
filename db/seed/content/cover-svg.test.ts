import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { coverSvg, wrapText } from './cover-svg.ts';

const hasPython = spawnSync('python3', ['--version']).status === 0;

// A real XML parser is the only honest well-formedness check; Node has none built in.
function parsesAsXml(xml: string): boolean {
  const result = spawnSync(
    'python3',
    ['-c', 'import sys, xml.dom.minidom; xml.dom.minidom.parseString(sys.stdin.buffer.read())'],
    { input: xml },
  );
  return result.status === 0;
}

const base = {
  title: 'Calculus: Early Transcendentals',
  author: 'Amina Osei',
  type: 'book',
  seed: 7,
};

describe('coverSvg', () => {
  it('returns a self-contained 400x600 SVG with no external references', () => {
    const svg = coverSvg(base);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 600"')).toBe(
      true,
    );
    expect(svg.endsWith('</svg>')).toBe(true);
    expect(svg).not.toMatch(/href=|<image|@import|@font-face|url\((?!#)/);
  });

  it('is deterministic for the same input', () => {
    expect(coverSvg(base)).toBe(coverSvg({ ...base }));
  });

  it('picks different colours for different seeds', () => {
    const colours = (svg: string) => svg.match(/stop-color="#[0-9a-f]{6}"/g);
    expect(colours(coverSvg(base))).not.toEqual(colours(coverSvg({ ...base, seed: 8 })));
  });

  it('escapes markup characters in the title, author and type', () => {
    const svg = coverSvg({
      title: 'Fish & Chips <script>"quoted"</script>',
      author: `O'Brien & <Sons>`,
      type: 'a<b>&"c"',
      seed: 1,
    });
    expect(svg).not.toContain('<script>');
    expect(svg).not.toContain('<Sons>');
    expect(svg).toContain('Fish &amp; Chips');
    expect(svg).toContain('&lt;script&gt;&quot;quoted&quot;');
    expect(svg).toContain('O&apos;Brien &amp; &lt;Sons&gt;');
    expect(svg).toContain('A&lt;B&gt;&amp;&quot;C&quot;');
  });

  it('drops control characters that no XML parser would accept', () => {
    const svg = coverSvg({ ...base, title: 'Bad\u0000\u0007Title' });
    expect(svg).toContain('BadTitle');
    expect([...svg].some((ch) => (ch.codePointAt(0) as number) < 0x09)).toBe(false);
  });

  it.skipIf(!hasPython)('parses as well-formed XML even with hostile text', () => {
    for (const title of [base.title, '<&">\'', 'Ünïcödé — 📚 “quotes”', 'x'.repeat(500)]) {
      expect(parsesAsXml(coverSvg({ ...base, title, author: '<&">' }))).toBe(true);
    }
  });

  it('shows the type as an upper-case label', () => {
    expect(coverSvg({ ...base, type: 'physical_product' })).toContain('>PHYSICAL PRODUCT</text>');
    expect(coverSvg({ ...base, type: 'courseware' })).toContain('>COURSEWARE</text>');
  });

  it('gives the image an accessible name with title and author', () => {
    expect(coverSvg(base)).toContain(
      '<title id="cover-bg-7-title">Calculus: Early Transcendentals by Amina Osei</title>',
    );
  });

  it('wraps a long title over several lines and truncates one that cannot fit', () => {
    const long = coverSvg({ ...base, title: 'Principles and Practice of Organic Chemistry' });
    expect((long.match(/<tspan/g) ?? []).length).toBeGreaterThan(3);
    const huge = coverSvg({ ...base, title: 'word '.repeat(200) });
    expect(huge).toContain('…');
    expect((huge.match(/<tspan/g) ?? []).length).toBeLessThan(15);
  });
});

describe('wrapText', () => {
  it('wraps on word boundaries within the limit', () => {
    expect(wrapText('Introduction to Linear Algebra', 14)).toEqual([
      'Introduction',
      'to Linear',
      'Algebra',
    ]);
  });

  it('splits a word longer than a line with a hyphen', () => {
    const lines = wrapText('Pneumonoultramicroscopic', 10);
    expect(lines).toEqual(['Pneumonou-', 'ltramicro-', 'scopic']);
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(10);
  });

  it('never splits an emoji in half', () => {
    const lines = wrapText('📚'.repeat(12), 5);
    for (const line of lines) expect(line).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
  });
});
