import { MARKUP_DESCRIPTION_WORDS, truncateWords } from './truncate-words.ts';

// spec 1 §2: structured page markup for search engines carries book and product data, price
// in USD, region US and a description cut to 500 words (schema.org JSON-LD).
export function productJsonLd(input: {
  url: string;
  imageUrl: string;
  productType: string;
  title: string;
  authors: string;
  publisher: string;
  description: string;
  isbn: string | null;
  offerings: readonly { priceCents: number; currencyCode: string }[];
  available: boolean;
}): Record<string, unknown> {
  const isBook = input.productType === 'book' || input.productType === 'ebundle';
  const authors = input.authors
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean)
    .map((name) => ({ '@type': 'Person', name }));
  return {
    '@context': 'https://schema.org',
    '@type': isBook ? 'Book' : 'Product',
    name: input.title,
    url: input.url,
    image: input.imageUrl,
    description: truncateWords(input.description, MARKUP_DESCRIPTION_WORDS),
    ...(isBook
      ? { author: authors, publisher: { '@type': 'Organization', name: input.publisher } }
      : { brand: { '@type': 'Brand', name: input.publisher } }),
    ...(input.isbn ? (isBook ? { isbn: input.isbn } : { gtin: input.isbn }) : {}),
    offers: input.offerings.map((offering) => ({
      '@type': 'Offer',
      price: (offering.priceCents / 100).toFixed(2),
      priceCurrency: 'USD',
      eligibleRegion: { '@type': 'Country', name: 'US' },
      availability: input.available
        ? 'https://schema.org/InStock'
        : 'https://schema.org/Discontinued',
      url: input.url,
    })),
  };
}

/** JSON for a <script> element: `<` escaped so a title cannot close the element. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}
