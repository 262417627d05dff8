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
