import type { PriceLabel } from './price-label.ts';

export type ProductCard = {
  id: number;
  productType: string;
  title: string;
  subtitle: string | null;
  authors: string;
  slug: string;
  path: string;
  price: PriceLabel;
};
