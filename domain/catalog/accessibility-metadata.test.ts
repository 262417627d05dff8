import { describe, expect, it } from 'vitest';
import { ACCESSIBILITY_GROUPS, accessibilityGroups } from './accessibility-metadata.ts';

const row = (
  subcategory: string | null,
  name: string,
  detail: string | null,
  url: string | null = null,
) => ({
  category: 'accessibility',
  subcategory,
  name,
  detail,
  url,
});

describe('accessibility metadata (spec 1 §2; W3C display guide)', () => {
  it('always lists every group in the guide order, empty ones too', () => {
    const groups = accessibilityGroups([]);
    expect(groups.map((g) => g.name)).toEqual([...ACCESSIBILITY_GROUPS]);
    expect(groups.every((g) => g.items.length === 0)).toBe(true);
  });

  it('marks the detail equal to the certifier for the logo and link', () => {
    const groups = accessibilityGroups([
      row('Conformance', 'Certifier', 'Open Reading Review', 'https://cert.example'),
      row('Conformance', 'Standard', 'EPUB Accessibility 1.1 - WCAG 2.1 Level AA'),
    ]);
    const conformance = groups.find((g) => g.name === 'Conformance')!;
    expect(conformance.items.map((i) => i.isCertifier)).toEqual([true, false]);
  });

  it('ignores other feature categories and puts unknown groups last', () => {
    const groups = accessibilityGroups([
      { category: 'ebook', subcategory: null, name: 'Search', detail: 'x', url: null },
      row('Something Else', 'Note', 'Kept'),
    ]);
    expect(groups.at(-1)!.items.map((i) => i.detail)).toEqual(['Kept']);
    expect(groups.flatMap((g) => g.items)).toHaveLength(1);
  });
});
