/** A product the user owns, as the library lists it. */
export type LibraryItem = {
  productId: number;
  title: string;
  productType: string;
  /** Null: owned without expiry. */
  expiresAt: Date | null;
};
