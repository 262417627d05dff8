import { DomainError } from '#domain/shared/errors.ts';
import { translate } from '#i18n/translate.ts';
import type { WebContext } from '#server/load-context.ts';

export const JSON_API = 'application/vnd.api+json';

export function jsonApi(body: unknown, init: ResponseInit = {}): Response {
  const headers = new Headers(init.headers);
  headers.set('Content-Type', JSON_API);
  headers.set('Cache-Control', 'no-store');
  return new Response(JSON.stringify(body), { ...init, headers });
}

export function apiError(
  context: WebContext,
  status: number,
  code: string,
  params?: Record<string, string | number>,
  /** What the error is about, e.g. `{ parameter: 'ecommerce_course_id' }` (JSON:API `source`). */
  source?: { parameter?: string; pointer?: string },
): Response {
  // A missing API resource is not a "page": the API says so in its own words (issue 13).
  const key = code === 'error.notFound' ? 'error.api.notFound' : code;
  return jsonApi(
    {
      errors: [
        {
          status: String(status),
          code: key,
          detail: translate(context.rc.locale, key, params),
          ...(source ? { source } : {}),
        },
      ],
    },
    { status },
  );
}

/** The one place that maps thrown errors to JSON:API error objects. */
export function mapApiError(context: WebContext, error: unknown): Response {
  if (error instanceof DomainError)
    return apiError(context, error.status, error.messageKey, error.params);
  context.log.error({ err: error }, 'api error');
  return apiError(context, 500, 'error.generic');
}

/** Reads a JSON body of at most 100 kB; anything else is a 400 in the user's language. */
export async function readJson(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.length > 100_000) throw new InvalidBody();
  try {
    return JSON.parse(text);
  } catch {
    throw new InvalidBody();
  }
}

export class InvalidBody extends DomainError {
  readonly status = 400 as const;
  constructor() {
    super('error.invalid');
  }
}
