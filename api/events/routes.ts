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

const redirectErrorBody = z
  .object({
    path: z.string().min(1).max(2000).startsWith('/'),
    message: z.string().max(500),
  })
  .strict();

/**
 * POST /api/events/redirect-error: the partner-store hand-off failed in the browser (spec 1
 * §4 Partner hand-off; spec 2 §8): log the message and record a redirect-error event.
 */
export async function postRedirectError(request: Request, context: WebContext): Promise<Response> {
  const parsed = redirectErrorBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'error.invalid');
  context.log.warn(
    { path: parsed.data.path, message: parsed.data.message, userId: context.rc.user?.id },
    'partner store redirect failed',
  );
  await recordEvent(context.rc, {
    name: 'redirect_error',
    path: parsed.data.path,
    props: { message: parsed.data.message },
  });
  return new Response(null, { status: 204 });
}
