// What the student decides on when opting (issue 19, "Opting blind"; spec 1 §4 Opting, Course
// fee): the section's course fee, the materials it includes (courseFeeCovers: its digital
// materials, never a physical copy, issue 38), what buying those same materials separately
// would cost (each one's cheapest digital offering), and the difference.
import { courseFeeCovers } from './fee-covers.ts';

/** A material the section adopted, with what it sells for on its own. */
export type FeeMaterial = {
  productId: number;
  title: string;
  productType: string;
  /** Sold at all: an active product, not withdrawn, deleted or disabled. */
  sellable: boolean;
  /** Its active offerings (any type: only digital ones count here). */
  offerings: readonly { type: string; priceCents: number; currencyCode: string }[];
};

export type IncludedMaterial = {
  productId: number;
  title: string;
  productType: string;
  /** The cheapest digital offering's price, or null: not sold separately. */
  separateCents: number | null;
};

export type CourseFeeSummary = {
  /** The course fee in integer cents, or null when the section has none on file. */
  feeCents: number | null;
  currencyCode: 'USD';
  /** What the fee includes, in the section's order. */
  included: IncludedMaterial[];
  /** The sum of `separateCents` over the materials sold separately. */
  separateTotalCents: number;
  /** How many of the included materials are sold separately. */
  soldSeparatelyCount: number;
  /**
   * How much less the fee costs than buying separately, when it does cost less (else null).
   * When some materials are not sold separately, the true saving is at least this.
   */
  savingCents: number | null;
};

/** The cheapest digital offering in USD of a sellable material, or null. */
export function separatePriceCents(material: FeeMaterial): number | null {
  if (!material.sellable) return null;
  const prices = material.offerings
    .filter((offering) => offering.type === 'digital' && offering.currencyCode === 'USD')
    .map((offering) => offering.priceCents)
    .filter((cents) => Number.isInteger(cents) && cents >= 0);
  return prices.length === 0 ? null : Math.min(...prices);
}

export function courseFeeSummary(input: {
  feeCents: number | null;
  materials: readonly FeeMaterial[];
}): CourseFeeSummary {
  const feeCents =
    input.feeCents !== null && Number.isInteger(input.feeCents) && input.feeCents >= 0
      ? input.feeCents
      : null;
  const seen = new Set<number>();
  const included: IncludedMaterial[] = [];
  for (const material of input.materials) {
    if (seen.has(material.productId)) continue;
    seen.add(material.productId);
    const offeringTypes = material.offerings.map((offering) => offering.type);
    if (!courseFeeCovers({ productType: material.productType, offeringTypes })) continue;
    included.push({
      productId: material.productId,
      title: material.title,
      productType: material.productType,
      separateCents: separatePriceCents(material),
    });
  }
  const sold = included.filter((material) => material.separateCents !== null);
  const separateTotalCents = sold.reduce((sum, material) => sum + (material.separateCents ?? 0), 0);
  const difference = feeCents === null ? 0 : separateTotalCents - feeCents;
  return {
    feeCents,
    currencyCode: 'USD',
    included,
    separateTotalCents,
    soldSeparatelyCount: sold.length,
    savingCents: feeCents !== null && sold.length > 0 && difference > 0 ? difference : null,
  };
}
