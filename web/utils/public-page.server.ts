import type { AppLoadContext } from 'react-router';
import type { PersonalRecipe } from '#web/utils/personal-recipe.ts';

/**
 * Marks this page as one every anonymous visitor of the site, in this language and country,
 * sees alike: the server may store the rendering and serve it again until one of the given
 * products (or the site, or the catalog) changes (server/page-cache.ts). Call it only from
 * loaders whose page shows nothing about the visitor.
 *
 * `personal` says what the page shows of a logged-in visitor besides the shell, when that is
 * all that differs (decision 043): the server then answers them with the stored anonymous page
 * and that personal part, without rendering it. Without it a logged-in visitor's page is
 * rendered whole.
 */
export function publicPage(
  context: AppLoadContext,
  products: Iterable<number | { id: number }> = [],
  personal?: PersonalRecipe,
): void {
  context.publicPage ??= { productIds: new Set(), personal: null };
  if (personal) context.publicPage.personal = personal;
  for (const product of products) {
    context.publicPage.productIds.add(typeof product === 'number' ? product : product.id);
  }
}
