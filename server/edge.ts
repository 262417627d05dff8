import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { LANGUAGES, type Locale, resolveLocale } from '#domain/accounts/language.ts';
import { knownSite } from '#domain/sites/service.ts';
import type { MessageParams } from '#i18n/translate.ts';
import { type BodyLimits, readBody } from './body-reader.ts';
import {
  compressStream,
  compressWhole,
  type Encoding,
  encodedEtag,
  isCompressible,
  preferredEncoding,
  varyOnEncoding,
} from './compression.ts';
import { parseCookies } from './cookies.ts';
import { errorResponse, wantsJson } from './error-response.ts';
import { LANG_COOKIE } from './load-context.ts';
import type { Logger } from './logger.ts';
import { decodeUtf8, isCleanEncodedText, isCleanJson, isCleanText } from './request-text.ts';
import { applySecurityHeaders } from './security-headers.ts';
import { receiveUpload, removeUploads, type UploadedFile } from './upload-reader.ts';

// The edge (issue 18, docs/edge.md): every request passes here first, before a page, the API,
// the page cache or a static file sees it. It decides what can be decided without the
// application (method, target, framing, size, encoding, text), answers in the visitor's
// language, and turns anything thrown later into a 500: no request may end the process.

/** Methods a route may serve. OPTIONS is answered here for every route that exists. */
const ROUTE_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);
/** Methods we know and never serve (TRACE echoes requests: cookies to a script, XST). */
const REFUSED_METHODS = new Set(['TRACE', 'TRACK', 'CONNECT']);
/** The longest request target served; longer is 414 (docs/edge.md). */
export const MAX_URL_LENGTH = 4096;
/** A body refused part-way is dropped for this long, so the client reads our answer first. */
const DRAIN_BEFORE_CLOSE_MS = 2_000;

export type EdgeLimits = {
  form: number;
  api: number;
  webhook: number;
  idleMs: number;
  totalMs: number;
};

export type EdgeOptions = {
  log: Logger;
  limits: EdgeLimits;
  /** HTTPS responses carry HSTS (production behind TLS). */
  https: boolean;
  /**
   * The methods the route at this path serves (OPTIONS included), or null when no route
   * exists there (the answer is then 404 for every method).
   */
  allowedMethods: (pathname: string, search: string) => Promise<readonly string[] | null>;
  /** Serves a stored page or a static file straight from the socket; true when it did. */
  serveDirect: (req: IncomingMessage, res: ServerResponse) => boolean;
  /** The application: pages and the API. It answers every error itself. */
  handle: (request: Request, client: ClientAddress) => Promise<Response>;
  /** Streamed uploads (UPLOAD_PATHS); without this, those paths take form bodies. */
  uploads?: UploadOptions;
};

export type UploadOptions = {
  /** Temporary files go here; the application moves the ones it keeps. */
  dir: string;
  maxBytes: number;
  maxFiles: number;
  idleMs: number;
  totalMs: number;
  /** Whether this request's sender may upload here at all, decided before a byte is read. */
  authorize: (headers: IncomingHttpHeaders, host: string, pathname: string) => Promise<boolean>;
  /** A path's own, smaller limit (issue 39: a roster package), else maxBytes. */
  limitFor?: (pathname: string) => number;
  /** What a path says when its upload is over its limit (issue 39: the paid file), else the generic. */
  tooLargeFor?: (pathname: string) => { key: string; params?: MessageParams } | null;
};

/** Paths whose POST bodies are streamed uploads (issue 15: the Admin page's catalog import). */
export const UPLOAD_PATHS = new Set([
  '/manage/admin/imports',
  '/manage/admin/imports.data',
  // Issue 39: a campus's OneRoster package.
  '/manage/roster-imports',
  '/manage/roster-imports.data',
]);
/** Upload paths with an id in them (issue 39: a term's paid file for its reconciliation). */
export const UPLOAD_PATH_PATTERNS: readonly RegExp[] = [
  /^\/manage\/billing\/terms\/[^/]+\/reconciliation(?:\.data)?$/,
];
/** The form field the application reads each uploaded file from (JSON: UploadedFile). */
export const UPLOAD_FIELD = 'upload.file';

export type EdgeListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Where a request came from (the socket's peer; behind a proxy, the proxy). */
export type ClientAddress = { address: string; family: 'IPv4' | 'IPv6'; port: number };

/** Which body limit a path gets; uploads stream to disk under their own (upload-reader.ts). */
export function bodyKind(pathname: string): 'form' | 'api' | 'webhook' | 'upload' {
  if (UPLOAD_PATHS.has(pathname) || UPLOAD_PATH_PATTERNS.some((p) => p.test(pathname))) {
    return 'upload';
  }
  if (pathname.startsWith('/api/payments/webhooks/')) return 'webhook';
  return pathname.startsWith('/api/') ? 'api' : 'form';
}

export function createEdge(options: EdgeOptions): EdgeListener {
  const { log } = options;
  return (req, res) => {
    res.on('error', (error) => log.debug({ err: error }, 'response stream'));
    req.on('error', (error) => log.debug({ err: error }, 'request stream'));
    serve(req, res, options).catch((error: unknown) => {
      log.error({ err: error, url: req.url, method: req.method }, 'edge error');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const locale = localeOf(req.headers);
      void send(
        res,
        errorResponse({
          json: wantsJson(req.url ?? '/', req.headers.accept),
          locale,
          status: 500,
          key: 'error.heading',
        }),
        req.method === 'HEAD',
      ).catch(() => res.destroy());
    });
  };
}

async function serve(req: IncomingMessage, res: ServerResponse, options: EdgeOptions) {
  const method = req.method ?? 'GET';
  const rawUrl = req.url ?? '/';
  const head = method === 'HEAD';
  const refuse = (
    status: number,
    key: string,
    extra: { headers?: Record<string, string>; pathname?: string; params?: MessageParams } = {},
  ) => {
    const headers: Record<string, string> = { ...extra.headers };
    const response = errorResponse({
      json: wantsJson(extra.pathname ?? rawUrl, req.headers.accept),
      locale: localeOf(req.headers),
      status,
      key,
      params: extra.params,
      headers,
    });
    applySecurityHeaders(response.headers, {
      scriptHashes: [],
      production: options.https,
      development: false,
      stripe: false,
    });
    return send(res, response, head);
  };

  // The target: a path (origin-form), short, and text a person could have typed.
  if (rawUrl.length > MAX_URL_LENGTH) return refuse(414, 'error.uriTooLong');
  if (!rawUrl.startsWith('/')) {
    if (method === 'OPTIONS' && rawUrl === '*') {
      return sendEmpty(res, 204, { Allow: 'GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS' });
    }
    return refuse(400, 'error.malformedUrl');
  }
  if (!isCleanEncodedText(Buffer.from(rawUrl, 'latin1'))) return refuse(400, 'error.badText');
  // RFC 9112 §3.2: a request whose Host is not a host, or that has more than one Host line
  // (Node keeps the first; a proxy before us may have read the other), is a 400.
  const hostHeader = req.headers.host ?? 'localhost';
  if (!HOST.test(hostHeader)) return refuse(400, 'error.malformedUrl');
  if (hostLines(req.rawHeaders) > 1) return refuse(400, 'error.invalid');
  let url: URL;
  try {
    url = new URL(rawUrl, `http://${hostHeader}`);
  } catch {
    return refuse(400, 'error.malformedUrl');
  }
  const { pathname } = url;

  // The method: known and served by this route, or said why not.
  if (!ROUTE_METHODS.has(method) && method !== 'OPTIONS' && !REFUSED_METHODS.has(method)) {
    return refuse(501, 'error.notImplemented', { pathname });
  }
  if (method !== 'GET' && method !== 'HEAD') {
    const allowed = await options.allowedMethods(pathname, url.search);
    if (!allowed) return refuse(404, 'error.notFound', { pathname });
    const allow = allowed.join(', ');
    if (method === 'OPTIONS') return sendEmpty(res, 204, { Allow: allow });
    if (!allowed.includes(method)) {
      return refuse(405, 'error.methodNotAllowed', { headers: { Allow: allow }, pathname });
    }
  } else if (options.serveDirect(req, res)) {
    return;
  }

  // The body: unencoded, of a type this kind of route reads, within its limit, clean text.
  let body: Uint8Array<ArrayBuffer> | null = null;
  let uploaded: UploadedFile[] = [];
  let bodyType: string | null = null;
  const uploads = options.uploads;
  if (method === 'POST' && uploads && bodyKind(pathname) === 'upload') {
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity') return refuse(415, 'error.unsupportedEncoding', { pathname });
    if (mediaType(req.headers['content-type']) !== MULTIPART) {
      return closeAfter(req, refuse(415, 'error.unsupportedMediaType', { pathname }));
    }
    if (!(await uploads.authorize(req.headers, hostHeader, pathname))) {
      return closeAfter(req, refuse(403, 'error.forbidden', { pathname }));
    }
    const maxBytes = uploads.limitFor?.(pathname) ?? uploads.maxBytes;
    const tooLarge = uploads.tooLargeFor?.(pathname) ?? { key: 'error.tooLarge' };
    const refuseTooLarge = () =>
      closeAfter(req, refuse(413, tooLarge.key, { pathname, params: tooLarge.params }));
    if (Number(req.headers['content-length'] ?? 0) > maxBytes) return refuseTooLarge();
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    const outcome = await receiveUpload(req, uploads.dir, { ...uploads, maxBytes });
    if (!outcome.ok) {
      await removeUploads(outcome.files);
      if (outcome.reason === 'aborted') return;
      if (outcome.reason === 'tooLarge') return refuseTooLarge();
      const [status, key] =
        outcome.reason === 'timeout' ? [408, 'error.timeout'] : [400, 'error.badText'];
      return closeAfter(req, refuse(status, key, { pathname }));
    }
    uploaded = outcome.files;
    // The application reads a plain form: the fields, and each file as its temporary path.
    // A field named like the files' is the edge's alone.
    const form = new URLSearchParams(outcome.fields.filter(([name]) => name !== UPLOAD_FIELD));
    for (const file of uploaded) form.append(UPLOAD_FIELD, JSON.stringify(file));
    body = new TextEncoder().encode(form.toString()) as Uint8Array<ArrayBuffer>;
    bodyType = FORM;
  } else if (method !== 'GET' && method !== 'HEAD' && hasBody(req.headers)) {
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (encoding !== 'identity') return refuse(415, 'error.unsupportedEncoding', { pathname });
    const kind = bodyKind(pathname);
    if (kind === 'upload') return refuse(415, 'error.unsupportedMediaType', { pathname });
    const type = mediaType(req.headers['content-type']);
    if (kind === 'form' && type !== FORM && type !== MULTIPART) {
      return refuse(415, 'error.unsupportedMediaType', { pathname });
    }
    const limits: BodyLimits = {
      maxBytes: options.limits[kind],
      idleMs: options.limits.idleMs,
      totalMs: options.limits.totalMs,
    };
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limits.maxBytes) {
      return closeAfter(req, refuse(413, 'error.tooLarge', { pathname }));
    }
    if (req.headers.expect?.toLowerCase() === '100-continue') res.writeContinue();
    const outcome = await readBody(req, limits);
    if (!outcome.ok) {
      if (outcome.reason === 'aborted') return;
      const status = outcome.reason === 'tooLarge' ? 413 : 408;
      const key = outcome.reason === 'tooLarge' ? 'error.tooLarge' : 'error.timeout';
      return closeAfter(req, refuse(status, key, { pathname }));
    }
    if (!(await isCleanBody(outcome.bytes, req.headers['content-type']))) {
      return refuse(400, 'error.badText', { pathname });
    }
    body = outcome.bytes;
  }

  const controller = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const headers = headersOf(req);
  if (bodyType) {
    headers.set('content-type', bodyType);
    headers.delete('content-length');
    headers.delete('transfer-encoding');
  }
  const request = new Request(url, {
    // HEAD is answered wherever GET is: the application sees a GET, the socket gets no body.
    method: head ? 'GET' : method,
    headers,
    body: body && body.length > 0 ? body : null,
    signal: controller.signal,
  });
  let response: Response;
  try {
    response = await options.handle(request, {
      address: req.socket.remoteAddress ?? '127.0.0.1',
      family: req.socket.remoteFamily === 'IPv6' ? 'IPv6' : 'IPv4',
      port: req.socket.remotePort ?? 0,
    });
  } finally {
    // Files the application kept were moved away; the rest are deleted.
    if (uploaded.length > 0) await removeUploads(uploaded);
  }
  if (response.status === 405 && !response.headers.has('Allow')) {
    const allowed = await options.allowedMethods(pathname, url.search);
    if (allowed) response.headers.set('Allow', allowed.join(', '));
  }
  await send(res, response, head, req.headers['accept-encoding']);
}

const FORM = 'application/x-www-form-urlencoded';
const MULTIPART = 'multipart/form-data';

/** The media type of a Content-Type header, lower case, without parameters. */
export function mediaType(header: string | undefined): string {
  return (header ?? '').split(';')[0]!.trim().toLowerCase();
}

function hasBody(headers: IncomingHttpHeaders): boolean {
  return headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;
}

/** The text in a body, read as its type says: every string must be clean (request-text.ts). */
async function isCleanBody(
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string | undefined,
): Promise<boolean> {
  if (bytes.length === 0) return true;
  const type = mediaType(contentType);
  if (type === FORM) return isCleanEncodedText(bytes);
  if (type === MULTIPART) {
    try {
      const form = await new Response(bytes, {
        headers: { 'Content-Type': contentType! },
      }).formData();
      for (const [name, value] of form) {
        if (!isCleanText(name)) return false;
        if (typeof value === 'string' ? !isCleanText(value) : !isCleanText(value.name)) {
          return false;
        }
      }
      return true;
    } catch {
      return false;
    }
  }
  if (type === 'application/json' || type.endsWith('+json')) {
    const text = decodeUtf8(bytes);
    if (text === null) return false;
    try {
      return isCleanJson(JSON.parse(text));
    } catch {
      // Not JSON at all: the call answers that itself, in its own words.
      return isCleanText(text);
    }
  }
  // Any other type is refused by the call it was sent to (415); its bytes are not read as text.
  return true;
}

/** A host name or address and an optional port: anything else would make a different URL. */
const HOST = /^[\w.-]+(:\d{1,5})?$|^\[[\d:a-fA-F.]+\](:\d{1,5})?$/;

/** The request's headers as the Fetch API has them (one it refuses carries nothing we read). */
export function headersOf(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    try {
      headers.append(raw[i]!, raw[i + 1]!);
    } catch {
      // A header the Fetch API refuses carries nothing we read.
    }
  }
  return headers;
}

/** The visitor's language from what the edge has: the LANG cookie, then Accept-Language. */
export function localeOf(headers: IncomingHttpHeaders): Locale {
  const cookie = Array.isArray(headers.cookie) ? headers.cookie.join('; ') : headers.cookie;
  return localeFromHeaders((name) =>
    name === 'cookie' ? (cookie ?? null) : ((headers[name] as string | undefined) ?? null),
  );
}

/** The same, read through a header getter (a Fetch request's headers). */
export function localeFromHeaders(header: (name: string) => string | null): Locale {
  return resolveLocale({
    cookie: parseCookies(header('cookie')).get(LANG_COOKIE),
    acceptLanguage: header('accept-language'),
    allowed: knownSite(header('host'))?.allowedLanguages ?? LANGUAGES,
  });
}

/**
 * After a refusal sent before the whole body was read: what still arrives is dropped unread
 * (memory stays flat) for a moment, so the client reads our answer and stops sending, then the
 * connection is closed if the body is still coming. (A `Connection: close` answer would make
 * Node close the socket at once; the client, still sending, would get a reset and could lose
 * our answer.)
 */
async function closeAfter(req: IncomingMessage, answered: Promise<void>): Promise<void> {
  req.resume();
  await answered;
  setTimeout(() => {
    if (!req.complete) req.socket.destroy();
  }, DRAIN_BEFORE_CLOSE_MS).unref();
}

function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string>) {
  res.writeHead(status, { ...headers, 'Content-Length': '0' });
  res.end();
}

/**
 * How a response's body may be compressed for this client: text-like, not encoded already, not
 * a byte range, not marked no-transform, a status with a body.
 */
function encodingFor(response: Response, acceptEncoding: string | undefined): Encoding | null {
  const { headers, status } = response;
  if (!isCompressible(headers.get('content-type'))) return null;
  if (headers.has('content-encoding') || headers.has('content-range')) return null;
  if (status === 204 || status === 304 || status === 206) return null;
  if (/no-transform/i.test(headers.get('cache-control') ?? '')) return null;
  return preferredEncoding(acceptEncoding);
}

/** HTML pages and JSON answers: made whole before they are sent (the rest may stream). */
const WHOLE = /^(text\/html|application\/(json|vnd\.api\+json))\b/i;

function isWhole(response: Response): boolean {
  return WHOLE.test(response.headers.get('content-type') ?? '');
}

/**
 * Writes a Fetch Response to the socket, with backpressure, compressed when the client takes
 * it (compression.ts); stops when the client leaves.
 */
export async function send(
  res: ServerResponse,
  response: Response,
  head: boolean,
  acceptEncoding?: string,
): Promise<void> {
  const encoding = encodingFor(response, acceptEncoding);
  if (isCompressible(response.headers.get('content-type'))) {
    response.headers.set('Vary', varyOnEncoding(response.headers.get('vary')));
  }
  if (encoding) {
    response.headers.set('Content-Encoding', encoding);
    response.headers.delete('Content-Length');
    const etag = response.headers.get('etag');
    if (etag) response.headers.set('ETag', encodedEtag(etag, encoding));
  }
  // A page or an API answer is whole in memory already (renderToString, JSON): compressed in
  // one go and sent with its length in one write, so that a process killed mid-answer never
  // leaves a proxy holding half a response it can no longer send elsewhere.
  let whole: Buffer | null = null;
  if (encoding && !head && response.body && isWhole(response)) {
    try {
      whole = await compressWhole(Buffer.from(await response.arrayBuffer()), encoding);
    } catch {
      res.destroy();
      return;
    }
    response.headers.set('Content-Length', String(whole.length));
  }
  const raw: string[] = [];
  for (const [name, value] of response.headers) {
    if (name !== 'set-cookie') raw.push(name, value);
  }
  for (const cookie of response.headers.getSetCookie()) raw.push('set-cookie', cookie);
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  res.writeHead(response.status, raw);
  if (whole) {
    res.end(whole);
    return;
  }
  if (head || !response.body) {
    await response.body?.cancel().catch(() => {});
    res.end();
    return;
  }
  if (encoding) {
    try {
      await pipeline(
        Readable.fromWeb(response.body as NodeReadableStream),
        compressStream(encoding),
        res,
      );
    } catch {
      // The client left, or the body failed half-way: the status is sent, the socket closed.
      res.destroy();
    }
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) {
        await reader.cancel().catch(() => {});
        return;
      }
      if (!res.write(value)) {
        await new Promise<void>((resolve) => {
          const go = () => {
            res.off('drain', go);
            res.off('close', go);
            resolve();
          };
          res.on('drain', go);
          res.on('close', go);
        });
      }
    }
  } catch (error) {
    // The body failed half-way (a file gone, a render error): the status is sent, so close.
    res.destroy(error instanceof Error ? error : undefined);
    return;
  }
  res.end();
}

/** How many Host lines a request has (its raw headers alternate names and values). */
function hostLines(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    if (rawHeaders[i]!.toLowerCase() === 'host') count += 1;
  }
  return count;
}
