import { serializeCookie } from '#server/cookies.ts';
import { SESSION_COOKIE, type WebContext } from '#server/load-context.ts';

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
    'Clear-Site-Data': '"cache", "storage"',
  };
}
