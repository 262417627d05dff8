import { LANG_COOKIE } from './load-context.ts';

// Minimal RFC 6265 cookie parsing and serialising; no library needed for three cookies.
export function parseCookies(header: string | null): Map<string, string> {
  const jar = new Map<string, string>();
  if (!header) return jar;
  for (const part of header.slice(0, 8192).split(';')) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    const name = part.slice(0, eq).trim();
    const raw = part.slice(eq + 1).trim();
    if (!jar.has(name)) {
      try {
        jar.set(name, decodeURIComponent(raw));
      } catch {
        jar.set(name, raw);
      }
    }
  }
  return jar;
}

export type CookieOptions = {
  maxAgeSeconds?: number;
  httpOnly?: boolean;
  secure?: boolean;
  sameSite?: 'Lax' | 'Strict';
  path?: string;
};

export function serializeCookie(name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path ?? '/'}`];
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  if (options.httpOnly ?? true) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push(`SameSite=${options.sameSite ?? 'Lax'}`);
  return parts.join('; ');
}

/**
 * The LANG cookie (spec 2 §7: the language also lives in the browser), written the same way by
 * the change-language call and the language form: readable by scripts, a year long.
 */
export function languageCookie(language: string, secure: boolean): string {
  return serializeCookie(LANG_COOKIE, language, {
    httpOnly: false,
    secure,
    maxAgeSeconds: 60 * 60 * 24 * 365,
  });
}
