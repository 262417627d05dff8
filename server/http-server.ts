import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { translate } from '#i18n/translate.ts';
import type { Config } from './config.ts';
import { localeOf } from './edge.ts';
import type { Logger } from './logger.ts';

// The HTTP server around the edge (issue 18, docs/edge.md): limits on what a connection may
// hold, and an answer in the visitor's language for what never becomes a request (a method
// Node's parser does not know, headers too large, headers that never finish, CONNECT).

type Limits = Pick<
  Config,
  | 'HEADERS_TIMEOUT_MS'
  | 'BODY_TIMEOUT_MS'
  | 'KEEP_ALIVE_TIMEOUT_MS'
  | 'MAX_HEADER_BYTES'
  | 'MAX_CONNECTIONS'
>;

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

export function createHttpServer(
  listener: (req: IncomingMessage, res: ServerResponse) => void,
  limits: Limits,
  log: Logger,
): http.Server {
  const server = http.createServer(
    {
      maxHeaderSize: limits.MAX_HEADER_BYTES,
      headersTimeout: limits.HEADERS_TIMEOUT_MS,
      // The whole request, headers and body; the edge also times each body (BODY_TIMEOUT_MS).
      requestTimeout: limits.HEADERS_TIMEOUT_MS + limits.BODY_TIMEOUT_MS,
      keepAliveTimeout: limits.KEEP_ALIVE_TIMEOUT_MS,
      // How often Node looks for connections past those timeouts (default 30 s).
      connectionsCheckingInterval: Math.min(1000, limits.HEADERS_TIMEOUT_MS),
    },
    listener,
  );
  server.maxHeadersCount = 100;
  server.maxConnections = limits.MAX_CONNECTIONS;
  // A client that says `Expect: 100-continue` waits for the edge: a body over its limit is
  // refused before it is sent.
  server.on('checkContinue', listener);
  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket) => {
    if (error.code === 'HPE_HEADER_OVERFLOW') answerOverflow(socket, error.rawPacket);
    else answerRaw(socket, statusOfParseError(error), error.rawPacket);
  });
  // CONNECT asks us to be a tunnel: we are not one.
  server.on('connect', (_req: IncomingMessage, socket: Duplex, head: Buffer) => {
    answerRaw(socket, 405, head, 'Allow: GET, HEAD, POST, OPTIONS');
  });
  server.on('error', (error) => log.error({ err: error }, 'http server'));
  return server;
}

const collecting = new WeakSet<Duplex>();
/** What is read past the header cap to find the visitor's language: bounded in size and time. */
const OVERFLOW_READ_BYTES = 256 * 1024;
const OVERFLOW_READ_MS = 500;

/**
 * Headers over the cap (431). A long request line can fill the whole cap before any header
 * arrives, so the language headers are looked for in what follows, for at most 256 KiB and half
 * a second; Node's parser may report the same socket again meanwhile, which is ignored.
 */
function answerOverflow(socket: Duplex, packet: Buffer | undefined) {
  if (collecting.has(socket)) return;
  collecting.add(socket);
  let data = packet ?? Buffer.alloc(0);
  let answered = false;
  const answer = () => {
    if (answered) return;
    answered = true;
    clearTimeout(timer);
    socket.off('data', onData);
    answerRaw(socket, 431, data);
  };
  const onData = (chunk: Buffer) => {
    if (data.length < OVERFLOW_READ_BYTES) data = Buffer.concat([data, chunk]);
    if (data.includes('\r\n\r\n') || data.length >= OVERFLOW_READ_BYTES) answer();
  };
  const timer = setTimeout(answer, OVERFLOW_READ_MS);
  socket.on('data', onData);
  if (data.includes('\r\n\r\n')) answer();
}

function statusOfParseError(error: NodeJS.ErrnoException): number {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return 431;
    case 'HPE_INVALID_METHOD':
      return 501;
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return 408;
    default:
      return 400;
  }
}

const MESSAGE_KEYS: Record<number, string> = {
  400: 'error.invalid',
  405: 'error.methodNotAllowed',
  408: 'error.timeout',
  431: 'error.headersTooLarge',
  501: 'error.notImplemented',
};

/**
 * Answers on a socket that holds no parsed request, then closes it. The language comes from
 * whatever headers arrived (LANG cookie, Accept-Language), else English.
 */
function answerRaw(socket: Duplex, status: number, packet?: Buffer, extraHeader?: string) {
  socket.on('error', () => {});
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // TRACK is not a method Node's parser knows, but it is TRACE's twin: refuse it the same way.
  const code =
    status === 501 && packet?.subarray(0, 6).toString('latin1') === 'TRACK ' ? 405 : status;
  const headers = headersOfPacket(packet);
  const body = translate(localeOf(headers), MESSAGE_KEYS[code] ?? 'error.invalid');
  const lines = [
    `HTTP/1.1 ${code} ${REASONS[code] ?? 'Bad Request'}`,
    'Content-Type: text/plain; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'X-Content-Type-Options: nosniff',
    'Connection: close',
    ...(code === 405 ? [extraHeader ?? 'Allow: GET, HEAD, POST, OPTIONS'] : []),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), 1000).unref();
}

/** The Cookie, Accept-Language and Host headers of a raw request, as far as they arrived. */
function headersOfPacket(packet: Buffer | undefined): http.IncomingHttpHeaders {
  const headers: http.IncomingHttpHeaders = {};
  if (!packet) return headers;
  const end = packet.indexOf('\r\n\r\n');
  const head = packet.subarray(0, end < 0 ? OVERFLOW_READ_BYTES : end);
  for (const line of head.toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'cookie' || name === 'accept-language' || name === 'host') headers[name] = value;
  }
  return headers;
}
