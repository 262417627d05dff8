import { z } from 'zod';
import { recordEvent } from '#domain/analytics/service.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, readJson } from '../errors.ts';

const pageViewBody = z.object({ path: z.string().min(1).max(2000).startsWith('/') }).strict();

/** POST /api/events/page-view: the client reports each route change. */
export async function postPageView(request: Request, context: WebContext): Promise<Response> {
  const parsed = pageViewBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'error.invalid');
  await recordEvent(context.rc, { name: 'page_view', path: parsed.data.path });
  return new Response(null, { status: 204 });
}
