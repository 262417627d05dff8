// The copying and printing allowances of a book (spec 1 §3 drm copyPercentage,
// printAllowancePercent; issue 5): what a reader has used, and a copy or a print counted
// against the limit, or refused with what is left.
import { and, eq, sql } from 'drizzle-orm';
import { queryRows } from '#db/client.ts';
import { readingAllowances } from '#db/schema/reading.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Invalid } from '#domain/shared/errors.ts';
import { allowanceLimit, decideAllowance, printLimit } from './drm.ts';
import type { BookFileStore } from './file-store.ts';
import { fileMetrics, printPagesOf } from './open-books.ts';
import { isPageRange, printPageCount } from './print-pages.ts';
import { readerContext, storedPercent, userOf } from './reader-access.ts';
import type { AllowanceOutcome, ReadingVia } from './types.ts';

/** What the reader has copied (characters) and printed (pages) of the book so far. */
export async function allowanceUsage(ctx: RequestContext, userId: number, productId: number) {
  const [row] = await ctx.db
    .select({
      copied: readingAllowances.copiedCharacters,
      printed: readingAllowances.printedPages,
    })
    .from(readingAllowances)
    .where(and(eq(readingAllowances.userId, userId), eq(readingAllowances.productId, productId)))
    .limit(1);
  return { copied: row?.copied ?? 0, printed: row?.printed ?? 0 };
}

/**
 * Counts a copy (characters) or a print (pages `from` to `to` of the book's print pages,
 * print-pages.ts) against the book's allowance, or refuses it when it would pass the limit
 * (spec 1 §3 drm copyPercentage, printAllowancePercent). One statement adds and checks, so
 * twenty requests at once can never pass the limit together.
 */
export async function countAllowance(
  ctx: RequestContext,
  store: BookFileStore,
  productId: number,
  request: { kind: 'copy'; characters: number } | { kind: 'print'; from: number; to: number },
  via: ReadingVia,
): Promise<AllowanceOutcome> {
  const { product, file } = await readerContext(ctx, productId, via);
  const user = userOf(ctx);
  const metrics = await fileMetrics(ctx, store, file);
  let amount: number;
  let limit: number;
  if (request.kind === 'copy') {
    amount = request.characters;
    limit = allowanceLimit(storedPercent(product.drmCopyPercent), metrics.textLength);
  } else {
    const pages = await printPagesOf(store, file, metrics);
    if (!isPageRange(pages, request.from, request.to)) throw new Invalid();
    amount = request.to - request.from + 1;
    limit = printLimit(storedPercent(product.drmPrintPercent), printPageCount(pages));
  }
  const column = request.kind === 'copy' ? 'copied_characters' : 'printed_pages';
  const counted = await queryRows<{ used: number }>(
    ctx.db,
    sql`insert into reading_allowances as a (user_id, product_id, ${sql.raw(column)}, updated_at)
        select ${user.id}, ${product.id}, ${amount}::int, ${ctx.now.toISOString()}::timestamptz
        where ${amount}::int <= ${limit}::int
        on conflict (user_id, product_id) do update
          set ${sql.raw(column)} = a.${sql.raw(column)} + excluded.${sql.raw(column)},
              updated_at = excluded.updated_at
          where a.${sql.raw(column)} + excluded.${sql.raw(column)} <= ${limit}::int
        returning a.${sql.raw(column)} as used`,
  );
  const row = counted[0];
  if (row) return { allowed: true, kind: request.kind, amount, used: Number(row.used), limit };
  const usage = await allowanceUsage(ctx, user.id, product.id);
  const used = request.kind === 'copy' ? usage.copied : usage.printed;
  const decision = decideAllowance(request.kind, { limit, used }, amount);
  // Refused by the database; the rule says why and what is left.
  return decision.allowed
    ? {
        allowed: false,
        kind: request.kind,
        reason: `reading.${request.kind}.refused`,
        remaining: 0,
        used,
        limit,
      }
    : {
        allowed: false,
        kind: request.kind,
        reason: decision.reason,
        remaining: decision.remaining,
        used,
        limit,
      };
}
