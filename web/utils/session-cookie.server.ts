import { serializeCookie } from '#server/cookies.ts';
import { SESSION_COOKIE, type WebContext } from '#server/load-context.ts';

/** Everything the site kept in this browser goes (logging out, another reader signing in). */
const CLEAR_SITE_DATA = '"cache", "storage"';

export function sessionCookie(context: WebContext, token: string, expiresAt: Date): string {
  return serializeCookie(SESSION_COOKIE, token, {
    secure: context.secureCookies,
    maxAgeSeconds: Math.floor((expiresAt.getTime() - Date.now()) / 1000),
  });
}

export function clearSessionCookie(context: WebContext): string {
  return serializeCookie(SESSION_COOKIE, '', { secure: context.secureCookies, maxAgeSeconds: 0 });
}

/**
 * What a browser is told at log out: the session cookie ends, and so does everything the site
 * kept in this browser (issue 16: the books kept for reading offline, the reader's service
 * worker, what waited to be saved; a campus computer is shared).
 */
export function loggedOutHeaders(context: WebContext): Record<string, string> {
  return {
    'Set-Cookie': clearSessionCookie(context),
    'Clear-Site-Data': CLEAR_SITE_DATA,
  };
}

/**
 * Someone signs in: if this browser keeps another reader's books (a campus computer the last
 * student left without logging out), they go, with what waited to be saved for them, before
 * the new reader's pages can reach them.
 */
export function signedInHeaders(context: WebContext, userId: number): Record<string, string> {
  return context.readerOf !== null && context.readerOf !== userId
    ? { 'Clear-Site-Data': CLEAR_SITE_DATA }
    : {};
}
