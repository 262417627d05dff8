import { ownerships } from '#db/schema/shelf.ts';
import { requireVerifiedEmail } from '#domain/accounts/email-verification.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { productDetail } from '#domain/catalog/service.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid } from '#domain/shared/errors.ts';
import { isFreeToAdd } from './free-book-rule.ts';

/**
 * Add To My Shelf (spec 1 §4 Free book): a book that reads 'Read for free' and can be had
 * here becomes the user's, for good. Adding it again changes nothing.
 */
export async function addFreeBook(ctx: RequestContext, productId: number): Promise<void> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  requireVerifiedEmail(user);
  const product = await productDetail(ctx, productId);
  if (!isFreeToAdd(product)) {
    throw new Invalid('freeBook.error.notFree');
  }
  await ctx.db
    .insert(ownerships)
    .values({ userId: user.id, productId, source: 'free', startsAt: ctx.now })
    .onConflictDoNothing();
  forgetAccounts([user.id]);
}
