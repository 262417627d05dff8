// What a section's course fee covers (issue 38, "What the course fee covers is one list"): the
// section's digital materials (a book, an ebundle, courseware, a classroom, a collection),
// required or optional alike, and never a physical copy, which its members buy (spec 1 §4
// Course fee: "Digital gives Start Reading … Physical gives Add To Cart or View Cart"). The
// opting dialog's list and its saving, the course page's badges, the public section page and
// the entitlement rule all read this.
import { entryOf, isPhysicalCopy } from '#domain/access/entitlement.ts';

export type FeeCoverFacts = {
  productType: string;
  /** The types of the product's active offerings (spec 1 §3 Offering). */
  offeringTypes: readonly string[];
};

/** Whether a section's course fee gives this material to its opted-in members. */
export function courseFeeCovers(material: FeeCoverFacts): boolean {
  return (
    entryOf(material.productType) !== null &&
    !isPhysicalCopy(material.productType, material.offeringTypes)
  );
}
