import { randomBytes, randomUUID } from 'node:crypto';
import { type ClientAddress, createRequestListener } from '@mjackson/node-fetch-server';
import { createRequestHandler, type ServerBuild } from 'react-router';
import { handleApiRequest } from '#api/router.ts';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { resolveLocale } from '#domain/accounts/language.ts';
import { findSession, loadSessionUser } from '#domain/accounts/service.ts';
import { csrfTokenFor, csrfTokenMatches, newToken } from '#domain/accounts/session-token.ts';
import { resolveSite } from '#domain/sites/service.ts';
import { translate } from '#i18n/translate.ts';
import { type Config, loadConfig } from './config.ts';
import { parseCookies, serializeCookie } from './cookies.ts';
import { ANON_COOKIE, LANG_COOKIE, SESSION_COOKIE, type WebContext } from './load-context.ts';
import { createLogger } from './logger.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { seedDemoIfWanted } from './seed-on-start.ts';

const MAX_BODY_BYTES = 1_000_000;
const MAX_URL_LENGTH = 4096;
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export type AppOptions = {
  build: ServerBuild | (() => Promise<ServerBuild>);
  env?: NodeJS.ProcessEnv;
  database?: DatabaseHandle;
};

export type App = {
  config: Config;
  database: DatabaseHandle;
  fetch: (request: Request, client?: ClientAddress) => Promise<Response>;
  listener: ReturnType<typeof createRequestListener>;
  close(): Promise<void>;
};

export async function createApp(options: AppOptions): Promise<App> {
  const config = loadConfig(options.env);
  const log = createLogger(config.LOG_LEVEL);
  const database =
    options.database ??
    (await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR }));
  await migrateDatabase(database);
  await seedDemoIfWanted(database, config, log);

  const production = config.NODE_ENV === 'production';
  const development = config.NODE_ENV === 'development';
  const renderPage = createRequestHandler(options.build as ServerBuild, config.NODE_ENV);

  async function handle(request: Request, client?: ClientAddress): Promise<Response> {
    const requestId = randomUUID();
    const started = performance.now();
    const nonce = randomBytes(16).toString('base64');
    let response: Response;
    let context: WebContext | null = null;
    let newAnonKey: string | null = null;
    try {
      const early = rejectEarly(request);
      if (early) {
        response = early;
      } else {
        const built = await buildContext(request, client, requestId, nonce);
        context = built.context;
        newAnonKey = built.newAnonKey;
        response =
          (await checkCsrf(request, context)) ??
          (new URL(request.url).pathname.startsWith('/api/')
            ? await handleApiRequest(request, context)
            : await renderPage(request, context));
      }
    } catch (error) {
      log.error({ err: error, requestId, url: request.url }, 'unhandled error');
      response = genericError(request, context?.rc.locale ?? 'en', requestId);
    }
    // Headers of a redirect or streamed response may be immutable: copy before we add ours.
    response = new Response(response.body, response);
    const https = isHttps(request, config);
    applySecurityHeaders(response.headers, { nonce, production: production && https, development });
    response.headers.set('X-Request-Id', requestId);
    if (newAnonKey && (response.headers.get('Content-Type') ?? '').startsWith('text/html')) {
      response.headers.append(
        'Set-Cookie',
        serializeCookie(ANON_COOKIE, newAnonKey, {
          secure: https,
          maxAgeSeconds: 60 * 60 * 24 * 30,
        }),
      );
    }
    log.debug(
      {
        requestId,
        method: request.method,
        url: request.url,
        status: response.status,
        ms: Math.round(performance.now() - started),
      },
      'request',
    );
    return response;
  }

  async function buildContext(
    request: Request,
    client: ClientAddress | undefined,
    requestId: string,
    nonce: string,
  ): Promise<{ context: WebContext; newAnonKey: string | null }> {
    const cookies = parseCookies(request.headers.get('cookie'));
    const now = new Date();
    const db = database.db;
    const site = await resolveSite(db, request.headers.get('host'));
    const sessionToken = cookies.get(SESSION_COOKIE) ?? null;
    const session = sessionToken ? await findSession(db, sessionToken, now) : null;
    const user = session ? await loadSessionUser(db, session) : null;
    const anonKey = cookies.get(ANON_COOKIE);
    const newAnonKey = !session && !(anonKey && /^[\w-]{20,64}$/.test(anonKey)) ? newToken() : null;
    const csrfKey = session && sessionToken ? sessionToken : (newAnonKey ?? anonKey!);
    const locale = resolveLocale({
      userChoice: user?.languageCode,
      cookie: cookies.get(LANG_COOKIE),
      acceptLanguage: request.headers.get('accept-language'),
      allowed: site.allowedLanguages,
    });
    return {
      newAnonKey,
      context: {
        rc: {
          db,
          site,
          user,
          locale,
          requestId,
          ipAddress: client?.address ?? '127.0.0.1',
          country: countryOf(request),
          now,
        },
        log: log.child({ requestId }),
        nonce,
        csrfToken: csrfTokenFor(config.sessionSecret, csrfKey),
        sessionToken: session ? sessionToken : null,
        secureCookies: isHttps(request, config),
        isDevelopment: development,
        database,
      },
    };
  }

  async function checkCsrf(request: Request, context: WebContext): Promise<Response | null> {
    if (!UNSAFE_METHODS.has(request.method)) return null;
    const cookies = parseCookies(request.headers.get('cookie'));
    const key = context.sessionToken ?? cookies.get(ANON_COOKIE) ?? '';
    let presented: unknown = request.headers.get('x-csrftoken');
    const type = request.headers.get('content-type') ?? '';
    if (
      !presented &&
      (type.startsWith('application/x-www-form-urlencoded') ||
        type.startsWith('multipart/form-data'))
    ) {
      try {
        presented = (await request.clone().formData()).get('csrfmiddlewaretoken');
      } catch {
        presented = null;
      }
    }
    const origin = request.headers.get('origin');
    const sameOrigin = !origin || origin === new URL(request.url).origin;
    if (key && sameOrigin && csrfTokenMatches(config.sessionSecret, key, presented)) return null;
    return errorResponse(request, context.rc.locale, 403, 'error.csrf');
  }

  const listener = createRequestListener(handle, {
    onError: (error) => {
      log.error({ err: error }, 'listener error');
      return new Response('Internal Server Error', { status: 500 });
    },
  });

  return { config, database, fetch: handle, listener, close: () => database.close() };
}

/**
 * Secure cookies and HSTS only over HTTPS: `npm start` serves plain http on localhost, where
 * HSTS would pin the developer's browser to https. Behind a TLS proxy, set PUBLIC_ORIGIN.
 */
function isHttps(request: Request, config: Config): boolean {
  return (
    new URL(request.url).protocol === 'https:' || (config.PUBLIC_ORIGIN ?? '').startsWith('https:')
  );
}

/** The shopper's country as a CDN in front of us reports it; US when none does. */
function countryOf(request: Request): string {
  const raw = (
    request.headers.get('cf-ipcountry') ??
    request.headers.get('x-country-code') ??
    ''
  ).toUpperCase();
  return /^[A-Z]{2}$/.test(raw) ? raw : 'US';
}

function rejectEarly(request: Request): Response | null {
  if (request.url.length > MAX_URL_LENGTH)
    return errorResponse(request, 'en', 414, 'error.invalid');
  const length = Number(request.headers.get('content-length') ?? 0);
  if (length > MAX_BODY_BYTES) return errorResponse(request, 'en', 413, 'error.tooLarge');
  return null;
}

function wantsJson(request: Request): boolean {
  return (
    new URL(request.url).pathname.startsWith('/api/') ||
    (request.headers.get('accept') ?? '').includes('json')
  );
}

/** A failure outside any page: JSON:API error object or a small accessible HTML page. */
export function errorResponse(
  request: Request,
  locale: 'en' | 'fr-CA',
  status: number,
  key: string,
): Response {
  const message = translate(locale, key);
  if (wantsJson(request)) {
    return Response.json(
      { errors: [{ status: String(status), code: key, detail: message }] },
      { status, headers: { 'Content-Type': 'application/vnd.api+json' } },
    );
  }
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${translate(locale, 'error.title')}</title></head><body><main><h1>${message}</h1><p><a href="/shelf">${translate(locale, 'error.backToShelf')}</a></p></main></body></html>`;
  return new Response(html, { status, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

function genericError(request: Request, locale: 'en' | 'fr-CA', requestId: string): Response {
  const response = errorResponse(
    request,
    locale,
    500,
    wantsJson(request) ? 'error.generic' : 'error.heading',
  );
  response.headers.set('X-Request-Id', requestId);
  return response;
}
