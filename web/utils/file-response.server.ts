import { bookFileFor } from '#domain/reading/book-files.ts';
import type { BookFileStore, ReadingVia } from '#domain/reading/service.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { parseId } from '#domain/shared/id.ts';
import { translate } from '#i18n/translate.ts';
import type { WebContext } from '#server/load-context.ts';
import { byteRange } from './byte-range.ts';

// Book files for their owners only (issue 5): private and never stored by a cache, typed by
// what the file is, ranges for pdf.js. A refusal is a small page in the reader's language.

export function refusal(context: WebContext, status: number, key: string): Response {
  const locale = context.rc.locale;
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${translate(locale, status === 404 ? 'error.notFound.title' : status === 403 ? 'error.forbidden.title' : 'error.title')}</title></head><body><main><h1>${translate(locale, key)}</h1><p><a href="/shelf">${translate(locale, 'error.goToShelf')}</a></p></main></body></html>`;
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'private, no-store' },
  });
}

/** A visitor logs in first, and comes back here. */
export function loginFirst(request: Request): Response {
  const url = new URL(request.url);
  return new Response(null, {
    status: 302,
    headers: {
      Location: `/accounts/login/?next=${encodeURIComponent(url.pathname + url.search)}`,
      'Cache-Control': 'private, no-store',
    },
  });
}

/** The refusal page for a thrown domain error; anything else is not ours to answer. */
export function domainRefusal(context: WebContext, error: unknown): Response {
  if (error instanceof DomainError) {
    const key =
      error.status === 404
        ? 'error.notFound'
        : error.status === 403
          ? 'error.forbidden'
          : 'error.invalid';
    return refusal(context, error.status, key);
  }
  throw error;
}

/** The CDS membership a reader call names (?coursemember_id=…), if any. */
export function viaOf(request: Request): ReadingVia {
  return { courseMemberId: parseId(new URL(request.url).searchParams.get('coursemember_id')) };
}

function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\/]/g, '_');
}

/** A book file's bytes, whole or the asked range; `download` names it as an attachment. */
export async function fileResponse(
  request: Request,
  context: WebContext,
  store: BookFileStore,
  fileId: number,
  options: { download: boolean },
): Promise<Response> {
  const file = await bookFileFor(context.rc, store, fileId, viaOf(request));
  if (options.download && file.type !== 'DOC') return refusal(context, 404, 'error.notFound');
  const headers = new Headers({
    'Content-Type': file.mediaType,
    'Cache-Control': 'private, no-store',
    'Accept-Ranges': 'bytes',
    'X-Content-Type-Options': 'nosniff',
  });
  const name = `${file.title}.${file.extension}`;
  headers.set(
    'Content-Disposition',
    `${options.download ? 'attachment' : 'inline'}; filename="${asciiName(name)}"; filename*=UTF-8''${encodeURIComponent(name)}`,
  );
  const range = byteRange(request.headers.get('range'), file.size);
  if (range.kind === 'unsatisfiable') {
    headers.set('Content-Range', `bytes */${file.size}`);
    return new Response(null, { status: 416, headers });
  }
  const head = request.method === 'HEAD';
  if (range.kind === 'partial') {
    headers.set('Content-Range', `bytes ${range.start}-${range.end}/${file.size}`);
    headers.set('Content-Length', String(range.end - range.start + 1));
    return new Response(head ? null : store.stream(file.storagePath, range), {
      status: 206,
      headers,
    });
  }
  headers.set('Content-Length', String(file.size));
  return new Response(head ? null : store.stream(file.storagePath), { status: 200, headers });
}
