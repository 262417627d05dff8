// Rules of the other product page types (spec 1 §2 "Other product page types", spec 2 §9).

/** The collection icon shows 9_plus above 9 items, else the count. */
export function collectionIcon(itemCount: number): string {
  return itemCount > 9 ? '9_plus' : String(Math.max(0, itemCount));
}

/**
 * Courseware access steps: 4 normally, 3 when the purchase reveals an Access Now button on
 * My Shelf (a codeless or URL-access courseware needs no code to copy).
 */
export function coursewareAccessSteps(product: {
  isCodeless: boolean;
  isUrlAccessCode: boolean;
}): 3 | 4 {
  return product.isCodeless || product.isUrlAccessCode ? 3 : 4;
}

/** Classroom grid cells: 3 on desktop, 4 on tablet, 4 on phone (spec 2 §9). */
export const CLASSROOM_GRID = { desktop: 3, tablet: 4, phone: 4 } as const;
