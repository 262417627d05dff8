import { describe, expect, it } from 'vitest';
import { jsonForScript, productJsonLd } from './structured-data.ts';

const base = {
  url: 'https://shop.test/book/1/calculus',
  imageUrl: 'https://shop.test/covers/1.svg',
  productType: 'book',
  title: 'Calculus',
  authors: 'Ada Lovelace, Alan Turing',
  publisher: 'Northfield Press',
  description: Array.from({ length: 600 }, (_, i) => `w${i}`).join(' '),
  isbn: '9780306406157',
  offerings: [{ priceCents: 4999, currencyCode: 'USD' }],
  available: true,
};

describe('structured page markup (spec 1 §2)', () => {
  it('a book is a schema.org Book with authors, ISBN and an Offer in USD for the US', () => {
    const ld = productJsonLd(base);
    expect(ld).toMatchObject({
      '@type': 'Book',
      isbn: '9780306406157',
      author: [{ name: 'Ada Lovelace' }, { name: 'Alan Turing' }],
    });
    expect(ld.offers).toEqual([
      expect.objectContaining({
        price: '49.99',
        priceCurrency: 'USD',
        eligibleRegion: { '@type': 'Country', name: 'US' },
      }),
    ]);
  });
  it('cuts the description to 500 words', () => {
    const description = productJsonLd(base).description as string;
    expect(description.split(' ')).toHaveLength(500);
  });
  it('other types are a Product', () => {
    expect(productJsonLd({ ...base, productType: 'courseware' })['@type']).toBe('Product');
  });
  it('a title cannot close the script element', () => {
    expect(jsonForScript({ name: '</script><script>alert(1)</script>' })).not.toContain(
      '</script>',
    );
  });
});
