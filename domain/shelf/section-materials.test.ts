import { describe, expect, it } from 'vitest';
import { materialEntries } from './section-materials.ts';

describe('section materials (spec 1 §4 Course fee, spec 2 §4)', () => {
  const rows = [
    { productId: 1, additionalProductId: null, isPhysicalDigitalChoice: false },
    { productId: 28, additionalProductId: 29, isPhysicalDigitalChoice: true },
    { productId: 1, additionalProductId: null, isPhysicalDigitalChoice: false },
  ];

  it('a choice gives a second entry with the versions swapped; duplicates go by product id', () => {
    expect(materialEntries(rows, new Set())).toEqual([
      { productId: 1, otherProductId: null, choice: false },
      { productId: 28, otherProductId: 29, choice: true },
      { productId: 29, otherProductId: 28, choice: true },
    ]);
  });

  it('once one version is owned, the other entry is dropped', () => {
    expect(materialEntries(rows, new Set([29])).map((e) => e.productId)).toEqual([1, 29]);
    expect(materialEntries(rows, new Set([28])).map((e) => e.productId)).toEqual([1, 28]);
  });

  it('an additional product without the choice flag adds no entry', () => {
    expect(
      materialEntries(
        [{ productId: 5, additionalProductId: 6, isPhysicalDigitalChoice: false }],
        new Set(),
      ),
    ).toEqual([{ productId: 5, otherProductId: null, choice: false }]);
  });
});
