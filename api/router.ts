import type { WebContext } from '#server/load-context.ts';
import { loginStatus, postChangeLanguage } from './account/routes.ts';
import { apiError, mapApiError } from './errors.ts';
import { postPageView } from './events/routes.ts';

type Handler = (request: Request, context: WebContext) => Response | Promise<Response>;

// JSON:API routes by method and path; the paths are those of spec 2 §7 under /api.
const ROUTES: Record<string, Partial<Record<string, Handler>>> = {
  '/api/account/login': { GET: (_r, c) => loginStatus(c) },
  '/api/account/user/me/change-language': { POST: postChangeLanguage },
  '/api/events/page-view': { POST: postPageView },
};

export async function handleApiRequest(request: Request, context: WebContext): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/\/+$/, '');
  const methods = ROUTES[path];
  if (!methods) return apiError(context, 404, 'error.notFound');
  const handler = methods[request.method];
  if (!handler) return apiError(context, 405, 'error.methodNotAllowed');
  try {
    return await handler(request, context);
  } catch (error) {
    return mapApiError(context, error);
  }
}
