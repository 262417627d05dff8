// A section's materials as My Shelf lists them (spec 1 §4 Course fee; spec 2 §4 Courseware
// launch): a physical/digital choice gives a second entry with the two versions swapped, the
// other version's entry is dropped once one of them is owned, and a product appears once.

export type SectionMaterialRow = {
  productId: number;
  additionalProductId: number | null;
  isPhysicalDigitalChoice: boolean;
};

export type MaterialEntry = {
  /** The product this entry shows (spec 1 §3 shelfItem). */
  productId: number;
  /** The other version of a choice (additionalShelfItem), or null. */
  otherProductId: number | null;
  choice: boolean;
};

export function materialEntries(
  rows: readonly SectionMaterialRow[],
  owned: ReadonlySet<number>,
): MaterialEntry[] {
  const entries: MaterialEntry[] = [];
  for (const row of rows) {
    const other = row.isPhysicalDigitalChoice ? row.additionalProductId : null;
    if (other === null) {
      entries.push({ productId: row.productId, otherProductId: null, choice: false });
      continue;
    }
    const versions: MaterialEntry[] = [
      { productId: row.productId, otherProductId: other, choice: true },
      { productId: other, otherProductId: row.productId, choice: true },
    ];
    // One version owned: the entry for the other one is an extra and goes.
    const ownedVersion = versions.find((entry) => owned.has(entry.productId));
    entries.push(...(ownedVersion ? [ownedVersion] : versions));
  }
  const seen = new Set<number>();
  return entries.filter((entry) => {
    if (seen.has(entry.productId)) return false;
    seen.add(entry.productId);
    return true;
  });
}
