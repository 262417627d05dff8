import { describe, expect, it } from 'vitest';
import { bisacTree, flattenBisac, slugifyBisacTitle } from './bisac.ts';

const all = flattenBisac();

describe('bisacTree', () => {
  it('has at least twelve top-level subjects, each coded XXX000000', () => {
    expect(bisacTree.length).toBeGreaterThanOrEqual(12);
    for (const subject of bisacTree) expect(subject.code).toMatch(/^[A-Z]{3}000000$/);
  });

  it('gives every top-level subject between three and eight subcategories', () => {
    for (const subject of bisacTree) {
      expect(subject.children.length, subject.title).toBeGreaterThanOrEqual(3);
      expect(subject.children.length, subject.title).toBeLessThanOrEqual(8);
    }
  });

  it('includes third-level categories', () => {
    expect(all.some((entry) => entry.depth === 2)).toBe(true);
  });

  it('uses well-formed BISAC codes that share their subject prefix', () => {
    for (const { node, depth } of all) {
      expect(node.code).toMatch(/^[A-Z]{3}\d{6}$/);
      if (depth > 0) expect(node.code).not.toMatch(/000000$/);
    }
    for (const subject of bisacTree) {
      for (const entry of flattenBisac([subject])) {
        expect(entry.node.code.slice(0, 3)).toBe(subject.code.slice(0, 3));
      }
    }
  });

  it('never repeats a code or a slug anywhere in the tree', () => {
    const codes = all.map((entry) => entry.node.code);
    const slugs = all.map((entry) => entry.node.slug);
    expect(new Set(codes).size).toBe(codes.length);
    expect(new Set(slugs).size).toBe(slugs.length);
  });

  it('builds kebab-case slugs prefixed by the parent slug', () => {
    for (const { node, parent } of all) {
      expect(node.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      if (parent) expect(node.slug.startsWith(`${parent.slug}-`)).toBe(true);
    }
  });

  it('knows the real codes for well-known headings', () => {
    const byCode = new Map(all.map((entry) => [entry.node.code, entry.node]));
    expect(byCode.get('MAT005000')?.slug).toBe('mathematics-calculus');
    expect(byCode.get('MAT002050')?.slug).toBe('mathematics-algebra-linear');
    expect(byCode.get('SCI013000')?.title).toBe('Chemistry');
    expect(byCode.get('COM051000')?.title).toBe('Programming');
    expect(byCode.get('BUS000000')?.slug).toBe('business-economics');
  });

  it('writes titles in title case without the BISAC "General" suffix', () => {
    for (const { node } of all) {
      expect(node.title).not.toMatch(/General|\//);
      expect(node.title[0]).toMatch(/[A-Z0-9]/);
    }
  });
});

describe('slugifyBisacTitle', () => {
  it('drops ampersands and punctuation and keeps symbols that carry meaning', () => {
    expect(slugifyBisacTitle('Business & Economics')).toBe('business-economics');
    expect(slugifyBisacTitle('Colonial Period (1600-1775)')).toBe('colonial-period-1600-1775');
    expect(slugifyBisacTitle('C++')).toBe('c-plus-plus');
  });
});

describe('flattenBisac', () => {
  it('lists parents before their children', () => {
    const seen = new Set<string>();
    for (const { node, parent } of all) {
      if (parent) expect(seen.has(parent.code)).toBe(true);
      seen.add(node.code);
    }
  });
});

// Issue 13: fr-CA pages show the categories' French names.
describe('French titles', () => {
  it('names every category in French, siblings apart', () => {
    for (const { node } of all) expect(node.titleFrCa.trim(), node.code).not.toBe('');
    for (const { node } of all) {
      const names = node.children.map((child) => child.titleFrCa);
      expect(new Set(names).size, node.code).toBe(names.length);
    }
  });

  it('names the subjects as French-language stores do', () => {
    const byCode = new Map(all.map(({ node }) => [node.code, node.titleFrCa]));
    expect(byCode.get('MAT000000')).toBe('Mathématiques');
    expect(byCode.get('BUS000000')).toBe('Affaires et économie');
    expect(byCode.get('STU000000')).toBe('Aides à l’étude');
    expect(byCode.get('JUV000000')).toBe('Fiction jeunesse');
    expect(byCode.get('SCI008000')).toBe('Biologie');
  });
});
