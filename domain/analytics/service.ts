import { asc, eq, sql } from 'drizzle-orm';
import { products } from '#db/schema/catalog.ts';
import { analyticsEvents } from '#db/schema/events.ts';
import { ltiLaunches } from '#db/schema/launch.ts';
import type { RequestContext } from '#domain/shared/context.ts';

export const EVENT_NAMES = ['page_view', 'payment_failed', 'redirect_error'] as const;
export type EventName = (typeof EVENT_NAMES)[number];

/** Stores one analytics event (spec 1 §2: a page view is tracked on every route change). */
export async function recordEvent(
  ctx: RequestContext,
  input: { name: EventName; path: string; props?: Record<string, string | number | boolean> },
): Promise<void> {
  await ctx.db.insert(analyticsEvents).values({
    name: input.name,
    userId: ctx.user?.id ?? null,
    path: input.path.slice(0, 2000),
    props: input.props ?? {},
    occurredAt: ctx.now,
  });
}

/**
 * Courseware launches of a section by material (issue 14: every launch counted in section
 * analytics): launched and refused, and how many members launched. The caller has checked
 * that the user may see the section's analytics (professor or teaching assistant).
 */
export async function sectionLaunches(
  ctx: RequestContext,
  sectionId: number,
): Promise<
  { productId: number; title: string; launched: number; refused: number; users: number }[]
> {
  const rows = await ctx.db
    .select({
      productId: ltiLaunches.productId,
      title: products.title,
      launched: sql<number>`count(*) filter (where ${ltiLaunches.outcome} = 'launched')`.mapWith(
        Number,
      ),
      refused: sql<number>`count(*) filter (where ${ltiLaunches.outcome} = 'refused')`.mapWith(
        Number,
      ),
      users:
        sql<number>`count(distinct ${ltiLaunches.userId}) filter (where ${ltiLaunches.outcome} = 'launched')`.mapWith(
          Number,
        ),
    })
    .from(ltiLaunches)
    .innerJoin(products, eq(products.id, ltiLaunches.productId))
    .where(eq(ltiLaunches.sectionId, sectionId))
    .groupBy(ltiLaunches.productId, products.title)
    .orderBy(asc(products.title));
  return rows;
}
