import type { WebContext } from '#server/load-context.ts';
import { getAccessCode, postAccessCode, postSectionCode } from './access/routes.ts';
import { loginStatus, postChangeLanguage } from './account/routes.ts';
import { deleteCartItem, getCart, postCartItem } from './cart/routes.ts';
import { getCatalogItem } from './catalog-items/routes.ts';
import { getPartnerHandoff } from './efollett/routes.ts';
import { apiError, JSON_API, mapApiError } from './errors.ts';
import { postPageView, postRedirectError } from './events/routes.ts';
import { postOptIn, postOptOut } from './members/routes.ts';
import { postCancel, postConfirm, postPayment, postResume } from './payments/routes.ts';
import { postStripeWebhook, STRIPE_WEBHOOK_PATH } from './payments/webhooks.ts';
import {
  deleteAnnotation,
  getAnnotations,
  getOfflinePdf,
  getOfflineShare,
  getPart,
  getSearch,
  getSettings,
  patchAnnotation,
  postAnnotation,
  postCopy,
  postNotesExport,
  postPrint,
  putPosition,
  putSettings,
} from './reading/routes.ts';
import { postRedeem } from './redeem/routes.ts';

type Params = Record<string, string>;
type Handler = (
  request: Request,
  context: WebContext,
  params: Params,
) => Response | Promise<Response>;

// JSON:API routes by path pattern and method; the paths are those of spec 2 §7 under /api.
// A `:name` segment matches one non-empty path segment, handed over undecoded: each handler
// validates its own parameters. A body is a JSON:API document (`application/vnd.api+json`)
// unless the route names the types it reads; anything else is 415 (issue 18).
const ROUTES: [
  pattern: string,
  methods: Partial<Record<string, Handler>>,
  accepts?: readonly string[],
][] = [
  ['/api/account/login', { GET: loginStatus }],
  // spec 2 §7: "JSON {language}", so plain JSON too.
  [
    '/api/account/user/me/change-language',
    { POST: postChangeLanguage },
    [JSON_API, 'application/json'],
  ],
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
  // Stripe posts its events as application/json; the signature covers the exact bytes.
  [STRIPE_WEBHOOK_PATH, { POST: postStripeWebhook }, ['application/json']],
  ['/api/reading/settings', { GET: getSettings, PUT: putSettings }],
  ['/api/reading/:productId/parts/:part', { GET: getPart }],
  ['/api/reading/:productId/offline/:part', { GET: getOfflineShare }],
  ['/api/reading/:productId/offline/:part/pdf', { GET: getOfflinePdf }],
  ['/api/reading/:productId/annotations', { GET: getAnnotations, POST: postAnnotation }],
  // Before the next: 'export' is not an annotation's id.
  ['/api/reading/:productId/annotations/export', { POST: postNotesExport }],
  [
    '/api/reading/:productId/annotations/:annotationId',
    { PATCH: patchAnnotation, DELETE: deleteAnnotation },
  ],
  ['/api/reading/:productId/search', { GET: getSearch }],
  ['/api/reading/:productId/position', { PUT: putPosition }],
  ['/api/reading/:productId/copy', { POST: postCopy }],
  ['/api/reading/:productId/print', { POST: postPrint }],
];

const COMPILED = ROUTES.map(([pattern, methods, accepts]) => ({
  pattern,
  segments: pattern.split('/'),
  methods,
  accepts: accepts ?? [JSON_API],
  allow: allowOf(methods),
}));

function allowOf(methods: Partial<Record<string, Handler>>): readonly string[] {
  const names = Object.keys(methods);
  return [...names, ...(names.includes('GET') ? ['HEAD'] : []), 'OPTIONS'];
}

function splitPath(pathname: string): string[] {
  return pathname.replace(/\/+$/, '').split('/');
}

/** The methods the API serves at this path (for Allow), or null when no call lives there. */
export function apiAllowedMethods(pathname: string): readonly string[] | null {
  const path = splitPath(pathname);
  return COMPILED.find(({ segments }) => match(segments, path))?.allow ?? null;
}

/** The pattern of the call at this path ('/api/cart/items/:id'), for metrics; null: none. */
export function apiRoutePattern(pathname: string): string | null {
  const path = splitPath(pathname);
  return COMPILED.find(({ segments }) => match(segments, path))?.pattern ?? null;
}

/**
 * A body's Content-Type against what the call reads (JSON:API 1.1: its media type with no
 * parameters; plain JSON may say its charset). No body, no type needed.
 */
function acceptsBody(request: Request, accepts: readonly string[]): boolean {
  const header = request.headers.get('content-type');
  const hasBody =
    request.headers.has('transfer-encoding') ||
    Number(request.headers.get('content-length') ?? 0) > 0;
  if (!header) return !hasBody;
  const [type = '', ...params] = header.split(';').map((part) => part.trim().toLowerCase());
  if (!accepts.includes(type)) return false;
  if (type === JSON_API) return params.every((p) => /^(ext|profile)=/.test(p));
  return params.every((p) => p === 'charset=utf-8' || p === 'charset="utf-8"');
}

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
  const path = splitPath(new URL(request.url).pathname);
  for (const { segments, methods, accepts, allow } of COMPILED) {
    const params = match(segments, path);
    if (!params) continue;
    const handler = methods[request.method];
    if (!handler) {
      const refused = apiError(context, 405, 'error.methodNotAllowed');
      refused.headers.set('Allow', allow.join(', '));
      return refused;
    }
    if (request.method !== 'GET' && !acceptsBody(request, accepts)) {
      return apiError(context, 415, 'error.unsupportedMediaType');
    }
    try {
      return await handler(request, context, params);
    } catch (error) {
      return mapApiError(context, error);
    }
  }
  return apiError(context, 404, 'error.notFound');
}
