import { analyticsEvents } from '#db/schema/events.ts';
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
