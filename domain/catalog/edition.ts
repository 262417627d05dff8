import type { Wording } from '#domain/shared/wording.ts';

// The Edition of the additional details table and the shelf's product information (spec 1 §2,
// §4). A numbered edition is the store's label for a number ('3rd Edition', '3e édition'),
// said in the page's language; any other edition (a 'Revised Edition', a 'Canadian Edition') is
// the publisher's text, as given (issue 13).
export function editionWording(product: {
  edition: string | null;
  editionNumber: number | null;
}): Wording | null {
  if (product.editionNumber !== null && product.editionNumber > 0) {
    return { message: 'product.editionNumber', values: { n: product.editionNumber } };
  }
  const text = product.edition?.trim();
  return text ? { text } : null;
}
