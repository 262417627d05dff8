import type { WebContext } from '#server/load-context.ts';
import { getAccessCode, postAccessCode, postSectionCode } from './access/routes.ts';
import { loginStatus, postChangeLanguage } from './account/routes.ts';
import { deleteCartItem, getCart, postCartItem } from './cart/routes.ts';
import { getCatalogItem } from './catalog-items/routes.ts';
import { getPartnerHandoff } from './efollett/routes.ts';
import { apiError, mapApiError } from './errors.ts';
import { postPageView, postRedirectError } from './events/routes.ts';
import { postOptIn, postOptOut } from './members/routes.ts';
import { postCancel, postConfirm, postPayment, postResume } from './payments/routes.ts';
import { postStripeWebhook, STRIPE_WEBHOOK_PATH } from './payments/webhooks.ts';
import { getPart, getSearch, postCopy, postPrint, putPosition } from './reading/routes.ts';
import { postRedeem } from './redeem/routes.ts';

type Params = Record<string, string>;
type Handler = (
  request: Request,
  context: WebContext,
  params: Params,
) => Response | Promise<Response>;

// JSON:API routes by path pattern and method; the paths are those of spec 2 §7 under /api.
// A `:name` segment matches one non-empty path segment, handed over undecoded: each handler
// validates its own parameters.
const ROUTES: [pattern: string, methods: Partial<Record<string, Handler>>][] = [
  ['/api/account/login', { GET: (_r, c) => loginStatus(c) }],
  ['/api/account/user/me/change-language', { POST: postChangeLanguage }],
  ['/api/events/page-view', { POST: postPageView }],
  ['/api/events/redirect-error', { POST: postRedirectError }],
  ['/api/members/:memberId/opt-out', { POST: postOptOut }],
  ['/api/members/:memberId/opt-in', { POST: postOptIn }],
  ['/api/efollett/:rsCourseId', { GET: getPartnerHandoff }],
  ['/api/catalog-items/:id', { GET: getCatalogItem }],
  ['/api/cart', { GET: (_r, c) => getCart(c) }],
  ['/api/access-items/:productId/access-code', { GET: getAccessCode, POST: postAccessCode }],
  ['/api/classroom-products/:productId/redeem', { POST: postSectionCode }],
  ['/api/redeem', { POST: postRedeem }],
  ['/api/cart/items', { POST: postCartItem }],
  ['/api/cart/items/:id', { DELETE: deleteCartItem }],
  ['/api/payments', { POST: postPayment }],
  ['/api/payments/:orderId/confirm', { POST: postConfirm }],
  ['/api/payments/:orderId/resume', { POST: postResume }],
  ['/api/payments/:orderId/cancel', { POST: postCancel }],
  [STRIPE_WEBHOOK_PATH, { POST: postStripeWebhook }],
  ['/api/reading/:productId/parts/:part', { GET: getPart }],
  ['/api/reading/:productId/search', { GET: getSearch }],
  ['/api/reading/:productId/position', { PUT: putPosition }],
  ['/api/reading/:productId/copy', { POST: postCopy }],
  ['/api/reading/:productId/print', { POST: postPrint }],
];

const COMPILED = ROUTES.map(([pattern, methods]) => ({ segments: pattern.split('/'), methods }));

function match(segments: string[], path: string[]): Params | null {
  if (segments.length !== path.length) return null;
  const params: Params = {};
  for (const [i, segment] of segments.entries()) {
    const actual = path[i]!;
    if (segment.startsWith(':')) {
      if (actual === '') return null;
      params[segment.slice(1)] = actual;
    } else if (segment !== actual) {
      return null;
    }
  }
  return params;
}

export async function handleApiRequest(request: Request, context: WebContext): Promise<Response> {
  const path = new URL(request.url).pathname.replace(/\/+$/, '').split('/');
  for (const { segments, methods } of COMPILED) {
    const params = match(segments, path);
    if (!params) continue;
    const handler = methods[request.method];
    if (!handler) return apiError(context, 405, 'error.methodNotAllowed');
    try {
      return await handler(request, context, params);
    } catch (error) {
      return mapApiError(context, error);
    }
  }
  return apiError(context, 404, 'error.notFound');
}
