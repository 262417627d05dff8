import { describe, expect, it } from 'vitest';
import { productPath } from './product-route.ts';

describe('product card route (spec 1 §2)', () => {
  it.each([
    ['book', '/book/7/intro-to-calculus'],
    ['ebundle', '/book/7/intro-to-calculus'],
    ['courseware', '/courseware/7/intro-to-calculus'],
    ['collection', '/collection/7/intro-to-calculus'],
    ['classroom', '/classroom/7/intro-to-calculus'],
    ['physical_product', '/product-detail/7'],
  ])('%s opens %s', (productType, path) => {
    expect(productPath({ id: 7, productType, slug: 'intro-to-calculus' })).toBe(path);
  });
});
