import { newToken } from '#domain/accounts/session-token.ts';
import { parseCookies, serializeCookie } from '#server/cookies.ts';
import type { WebContext } from '#server/load-context.ts';

// Issue 38: the browser that signed up keeps a marker for as long as its link works (48 h);
// the link opened in that browser signs the new account in (domain/accounts/
// email-confirmation.ts). Only the confirmation page is sent it. Set on every sign-up answer,
// a taken address's too, so that the answer does not tell one from the other.

export const SIGNUP_DEVICE_COOKIE = 'signup_device';
const COOKIE_PATH = '/accounts/verify';
const MAX_AGE_SECONDS = 48 * 60 * 60;

/** A new marker and the Set-Cookie value that gives it to this browser. */
export function newSignupDevice(context: WebContext): { device: string; cookie: string } {
  const device = newToken();
  return {
    device,
    cookie: serializeCookie(SIGNUP_DEVICE_COOKIE, device, {
      path: COOKIE_PATH,
      secure: context.secureCookies,
      maxAgeSeconds: MAX_AGE_SECONDS,
    }),
  };
}

/** The marker this browser sent, if any. */
export function signupDevice(request: Request): string | null {
  return parseCookies(request.headers.get('cookie')).get(SIGNUP_DEVICE_COOKIE) ?? null;
}

/** The marker is spent once its link signed the account in. */
export function clearSignupDevice(context: WebContext): string {
  return serializeCookie(SIGNUP_DEVICE_COOKIE, '', {
    path: COOKIE_PATH,
    secure: context.secureCookies,
    maxAgeSeconds: 0,
  });
}
