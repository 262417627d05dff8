import type { AppLoadContext } from 'react-router';
import { productDetail } from '#domain/catalog/service.ts';
import { cartLineCount } from '#domain/commerce/cart.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { rootPersonal, rootRedirect } from '#web/root-personal.server.ts';
import { productPersonal } from '#web/routes/product.server.ts';
import type { PersonalPart } from './personal-part.ts';
import type { PersonalRecipe } from './personal-recipe.ts';

const GONE = Symbol('gone');

/**
 * The personal part of a stored public page for the logged-in visitor of this request
 * (decision 043): the shell's (root-personal.server.ts), the page's by its recipe (the same
 * function its loader calls), and the cart's count. Null when the page must be rendered whole
 * instead: the licence agreement comes first (the root loader redirects), or a manager acts as
 * someone (the page carries a banner the anonymous one has no place for).
 */
export async function personalPartFor(
  context: AppLoadContext,
  url: URL,
  recipe: PersonalRecipe,
): Promise<PersonalPart | null> {
  const { rc } = context;
  if (!rc.user || rc.user.isImpersonating || rootRedirect(context, url)) return null;
  const root = rootPersonal(context);
  const [page, cartCount] = await Promise.all([
    recipe.page === 'product'
      ? productDetail(context.catalogRc, recipe.productId).then(
          (detail) => productPersonal(context, detail, url),
          // Gone since its page was stored (the notice still on its way): rendered whole, the
          // page says it is not found, as to anyone.
          (error: unknown) => {
            if (error instanceof NotFound) return GONE;
            throw error;
          },
        )
      : null,
    root.showCart ? cartLineCount(rc.db, { userId: rc.user.id }) : null,
  ]);
  if (page === GONE) return null;
  return { root, page, cartCount };
}
