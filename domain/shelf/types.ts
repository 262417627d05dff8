/** A product the user owns, as the library lists it. */
export type LibraryItem = {
  productId: number;
  title: string;
  /** The title's language (pages mark it with `lang`, issue 13). */
  languageCode: string;
  productType: string;
  /** Null: owned without expiry. */
  expiresAt: Date | null;
};
