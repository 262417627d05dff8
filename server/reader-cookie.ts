import { serializeCookie } from './cookies.ts';
import { READER_COOKIE, type WebContext } from './load-context.ts';

/**
 * This browser keeps books for reading offline for this reader (issue 16): set when a book
 * starts to be kept, so that another person signing in here later clears them first
 * (web/utils/session-cookie.server.ts signedInHeaders).
 */
export function readerCookie(context: WebContext, userId: number): string {
  return serializeCookie(READER_COOKIE, String(userId), {
    secure: context.secureCookies,
    maxAgeSeconds: 400 * 24 * 3600,
  });
}
