import type { PriceLabel } from './price-label.ts';

export type ProductCard = {
  id: number;
  productType: string;
  title: string;
  subtitle: string | null;
  authors: string;
  slug: string;
  /** The language of the title, subtitle and description (pages mark it with `lang`). */
  languageCode: string;
  path: string;
  price: PriceLabel;
  /** The cover's version, for its addresses (cover-image.ts, cover-version.ts). */
  cover: string;
};
