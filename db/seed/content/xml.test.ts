import { describe, expect, it } from 'vitest';
import { escapeXml } from './xml.ts';

describe('escapeXml', () => {
  it('escapes the five XML special characters', () => {
    expect(escapeXml(`<a href="x">Tom & Jerry's</a>`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&apos;s&lt;/a&gt;',
    );
  });

  it('drops characters XML 1.0 cannot represent but keeps tabs and newlines', () => {
    expect(escapeXml('a\u0000b\u0008c\u000bd\ufffee\tf\ng')).toBe('abcde\tf\ng');
  });

  it('keeps surrogate pairs and drops unpaired surrogates', () => {
    expect(escapeXml('📚')).toBe('📚');
    expect(escapeXml('x\ud800y\udc00z')).toBe('xyz');
  });
});
