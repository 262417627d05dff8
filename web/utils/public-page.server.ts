import type { AppLoadContext } from 'react-router';

/**
 * Marks this page as one every anonymous visitor of the site, in this language and country,
 * sees alike: the server may store the rendering and serve it again until one of the given
 * products (or the site, or the catalog) changes (server/page-cache.ts). Call it only from
 * loaders whose page shows nothing about the visitor.
 */
export function publicPage(
  context: AppLoadContext,
  products: Iterable<number | { id: number }> = [],
): void {
  context.publicPage ??= { productIds: new Set() };
  for (const product of products) {
    context.publicPage.productIds.add(typeof product === 'number' ? product : product.id);
  }
}
