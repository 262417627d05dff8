import type { Locale } from '#domain/accounts/language.ts';
import { type MessageParams, translate } from '#i18n/translate.ts';

/** JSON:API errors for the API and for callers that ask for JSON; a page for everyone else. */
export function wantsJson(pathname: string, accept: string | null | undefined): boolean {
  return pathname.startsWith('/api/') || (accept ?? '').includes('json');
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * A failure answered outside any page (the edge, a refused CSRF token, an unhandled error): a
 * JSON:API error object, or a small accessible page, in the visitor's language.
 */
export function errorResponse(options: {
  json: boolean;
  locale: Locale;
  status: number;
  key: string;
  params?: MessageParams;
  headers?: Record<string, string>;
}): Response {
  const { json, locale, status } = options;
  // A missing API resource is not a "page" (issue 13).
  const key = json && options.key === 'error.notFound' ? 'error.api.notFound' : options.key;
  const message = translate(locale, key, options.params);
  const headers = new Headers(options.headers);
  if (json) {
    headers.set('Content-Type', 'application/vnd.api+json');
    headers.set('Cache-Control', 'no-store');
    return new Response(
      JSON.stringify({ errors: [{ status: String(status), code: key, detail: message }] }),
      { status, headers },
    );
  }
  headers.set('Content-Type', 'text/html; charset=utf-8');
  headers.set('Cache-Control', 'no-store');
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(translate(locale, 'error.title'))}</title></head><body><main><h1>${escapeHtml(message)}</h1><p><a href="/">${escapeHtml(translate(locale, 'error.goHome'))}</a> · <a href="/shelf">${escapeHtml(translate(locale, 'error.backToShelf'))}</a></p></main></body></html>`;
  return new Response(html, { status, headers });
}
