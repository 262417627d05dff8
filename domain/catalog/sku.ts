import { Invalid } from '#domain/shared/errors.ts';
import { identifierReadings } from './isbn.ts';

// SKU Lookup's reading of a typed number (spec 1 §2 user menu, Bookstore Manager: SKU Lookup),
// apart from the lookup itself so that the page's form can know the field's length.

/** No typed number is longer: 16 digits and an X, with room for the hyphens people type. */
export const SKU_MAX_LENGTH = 40;

/**
 * What a typed number reads as: the identifier values it may be stored as, or why it is none. Empty is
 * 'This field may not be null.' (spec 1 §5, as every required field); anything else that is no
 * identifier's shape says what is expected.
 */
export function skuReadings(raw: string | null | undefined): string[] {
  const typed = (raw ?? '').trim();
  if (typed === '') throw new Invalid('skuLookup.error.empty');
  const readings = typed.length > SKU_MAX_LENGTH ? [] : identifierReadings(typed);
  if (readings.length === 0) throw new Invalid('skuLookup.error.shape');
  return readings;
}
