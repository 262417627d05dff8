import { countAllowance } from '#domain/reading/allowances.ts';
import {
  addAnnotation,
  annotationsOf,
  changeAnnotation,
  exportAnnotations,
  removeAnnotation,
} from '#domain/reading/annotations.ts';
import { offlinePdf, offlineShare } from '#domain/reading/offline-shares.ts';
import { savePosition } from '#domain/reading/positions.ts';
import { type ReadingVia, readerPart, searchBook } from '#domain/reading/service.ts';
import { readerSettingsOf, saveReaderSettings } from '#domain/reading/settings-service.ts';
import type { AllowanceOutcome } from '#domain/reading/types.ts';
import { translate } from '#i18n/translate.ts';
import type { WebContext } from '#server/load-context.ts';
import { readerCookie } from '#server/reader-cookie.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';
import {
  annotationBody,
  annotationChangeBody,
  annotationIdParam,
  copyBody,
  notesExportBody,
  partParam,
  positionBody,
  printBody,
  productIdParam,
  readingQuery,
  settingsBody,
} from './validators.ts';

// The reader's calls (issue 5): another chapter, search, the saved position, and the DRM
// checks it makes before letting a copy or a print happen. Each checks access again: an
// ownership that ended since the page opened is refused (403 'reading.error.expired').

type Params = Record<string, string>;

function parseQuery(request: Request) {
  const url = new URL(request.url);
  const raw: Record<string, string[]> = {};
  for (const [key, value] of url.searchParams) raw[key] = [...(raw[key] ?? []), value];
  return readingQuery.safeParse({ coursemember_id: raw.coursemember_id, q: raw.q });
}

function input(request: Request, params: Params) {
  const productId = productIdParam.safeParse(params.productId);
  const query = parseQuery(request);
  if (!productId.success || !query.success) return null;
  const via: ReadingVia = { courseMemberId: query.data.coursemember_id?.[0] ?? null };
  return { productId: productId.data, via, query: query.data };
}

/** GET /api/reading/{productId}/parts/{part}: one EPUB chapter, rendered on the server. */
export async function getPart(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  const part = partParam.safeParse(params.part);
  if (!parsed || !part.success) return apiError(context, 404, 'error.notFound');
  const found = await readerPart(
    context.rc,
    context.bookFiles,
    parsed.productId,
    part.data,
    parsed.via,
  );
  return jsonApi({
    data: { type: 'reader-part', id: String(found.index), attributes: found },
  });
}

/**
 * GET /api/reading/{productId}/offline/{part}: the parts this device may keep to read the book
 * offline, from the part the reader is in (issue 16; the share: domain/reading/offline.ts).
 */
export async function getOfflineShare(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  const part = partParam.safeParse(params.part);
  if (!parsed || !part.success) return apiError(context, 404, 'error.notFound');
  const share = await offlineShare(
    context.rc,
    context.bookFiles,
    parsed.productId,
    part.data,
    parsed.via,
  );
  const response = jsonApi({
    data: { type: 'offline-share', id: String(parsed.productId), attributes: share },
  });
  // This browser now keeps books for this reader: another person signing in here clears them.
  const reader = context.rc.user?.id;
  if (share.parts.length > 0 && reader !== undefined && context.readerOf !== reader)
    response.headers.append('Set-Cookie', readerCookie(context, reader));
  return response;
}

/**
 * GET /api/reading/{productId}/offline/{page}/pdf: the copy of a PDF this device keeps to read
 * it offline, the share's pages from that page and every other page blank (issue 16). For the
 * reader's service worker, which keeps it; never stored by anything else.
 */
export async function getOfflinePdf(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  const part = partParam.safeParse(params.part);
  if (!parsed || !part.success) return apiError(context, 404, 'error.notFound');
  const copy = await offlinePdf(
    context.rc,
    context.bookFiles,
    parsed.productId,
    part.data,
    parsed.via,
  );
  return new Response(Buffer.from(copy.data), {
    headers: {
      'Content-Type': 'application/pdf',
      'Cache-Control': 'private, no-store',
      'X-Offline-Pages': copy.pages.join(','),
    },
  });
}

/** GET /api/reading/{productId}/search?q=…: where the words occur in the book. */
export async function getSearch(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const q = parsed.query.q?.[0];
  if (!q) return apiError(context, 400, 'reading.search.empty', undefined, { parameter: 'q' });
  const hits = await searchBook(context.rc, context.bookFiles, parsed.productId, q, parsed.via);
  return jsonApi({
    data: hits.map((hit, i) => ({ type: 'search-hit', id: String(i), attributes: hit })),
    meta: { count: hits.length },
  });
}

/** PUT /api/reading/{productId}/position: where the reader is now (also a page event). */
export async function putPosition(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const body = positionBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  const { readAt, ...position } = body.data.data.attributes;
  await savePosition(
    context.rc,
    context.bookFiles,
    parsed.productId,
    { ...position, readAt: readAt === undefined ? undefined : new Date(readAt) },
    parsed.via,
  );
  return new Response(null, { status: 204 });
}

/** GET /api/reading/{productId}/annotations: the reader's highlights and bookmarks (issue 16). */
export async function getAnnotations(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const annotations = await annotationsOf(
    context.rc,
    context.bookFiles,
    parsed.productId,
    parsed.via,
  );
  return jsonApi({
    data: annotations.map(({ id, ...attributes }) => ({
      type: 'annotation',
      id: String(id),
      attributes,
    })),
    meta: { count: annotations.length },
  });
}

function annotationDocument({ id, ...attributes }: { id: number }, status = 200) {
  return jsonApi({ data: { type: 'annotation', id: String(id), attributes } }, { status });
}

/** POST /api/reading/{productId}/annotations: a new highlight or bookmark. */
export async function postAnnotation(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const body = annotationBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  const made = await addAnnotation(
    context.rc,
    context.bookFiles,
    parsed.productId,
    body.data.data.attributes,
    parsed.via,
  );
  return annotationDocument(made, 201);
}

/**
 * POST /api/reading/{productId}/annotations/export: the reader's highlights, notes and
 * bookmarks as a Markdown or CSV file to save (issue 16). A POST, not a GET: the quotes it
 * carries are counted against the copy allowance, which a prefetch must never do. The counts
 * travel in headers, for the reader to say what the file holds.
 */
export async function postNotesExport(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const body = notesExportBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  const file = await exportAnnotations(
    context.rc,
    context.bookFiles,
    parsed.productId,
    body.data.data.attributes.format,
    parsed.via,
  );
  return new Response(file.body, {
    headers: {
      'Content-Type': file.mediaType,
      'Content-Disposition': `attachment; filename="${file.fileName.replace(/[^\x20-\x7e]|"/g, '_')}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
      'Cache-Control': 'no-store',
      'X-Notes-Count': String(file.count),
      'X-Quotes-Left-Out': String(file.leftOut),
      'X-Copy-Used': String(file.copyUsed),
    },
  });
}

/** PATCH /api/reading/{productId}/annotations/{annotationId}: a highlight's colour or note. */
export async function patchAnnotation(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  const id = annotationIdParam.safeParse(params.annotationId);
  if (!parsed || !id.success) return apiError(context, 404, 'error.notFound');
  const body = annotationChangeBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  const changed = await changeAnnotation(
    context.rc,
    context.bookFiles,
    parsed.productId,
    id.data,
    body.data.data.attributes,
    parsed.via,
  );
  return annotationDocument(changed);
}

/** DELETE /api/reading/{productId}/annotations/{annotationId}. */
export async function deleteAnnotation(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  const id = annotationIdParam.safeParse(params.annotationId);
  if (!parsed || !id.success) return apiError(context, 404, 'error.notFound');
  await removeAnnotation(context.rc, context.bookFiles, parsed.productId, id.data, parsed.via);
  return new Response(null, { status: 204 });
}

function settingsDocument(settings: unknown) {
  return jsonApi({ data: { type: 'reader-settings', id: 'me', attributes: settings } });
}

/** GET /api/reading/settings: the logged-in reader's settings (issue 16), or the defaults. */
export async function getSettings(_request: Request, context: WebContext) {
  if (!context.rc.user) return apiError(context, 401, 'error.loginRequired');
  return settingsDocument(await readerSettingsOf(context.rc));
}

/** PUT /api/reading/settings: saves them for every device. */
export async function putSettings(request: Request, context: WebContext) {
  if (!context.rc.user) return apiError(context, 401, 'error.loginRequired');
  const body = settingsBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  return settingsDocument(await saveReaderSettings(context.rc, body.data.data.attributes));
}

function allowanceDocument(
  context: WebContext,
  outcome: AllowanceOutcome,
  pages: { from: number; to: number } | null = null,
) {
  const locale = context.rc.locale;
  const message = outcome.allowed
    ? translate(locale, `reading.${outcome.kind}.allowed`, {
        used: outcome.used,
        limit: outcome.limit,
        amount: outcome.amount,
        ...pages,
      })
    : translate(locale, outcome.reason, { remaining: outcome.remaining, limit: outcome.limit });
  return jsonApi({
    data: {
      type: 'allowance',
      id: outcome.kind,
      attributes: { ...outcome, message },
    },
  });
}

/** POST /api/reading/{productId}/copy: may these many characters be copied? Counted if so. */
export async function postCopy(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const body = copyBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  const outcome = await countAllowance(
    context.rc,
    context.bookFiles,
    parsed.productId,
    { kind: 'copy', characters: body.data.data.attributes.characters },
    parsed.via,
  );
  return allowanceDocument(context, outcome);
}

/** POST /api/reading/{productId}/print: may pages `from` to `to` be printed? Counted if so. */
export async function postPrint(request: Request, context: WebContext, params: Params) {
  const parsed = input(request, params);
  if (!parsed) return apiError(context, 404, 'error.notFound');
  const body = printBody.safeParse(await readJson(request));
  if (!body.success) return apiError(context, 400, 'error.invalid');
  const outcome = await countAllowance(
    context.rc,
    context.bookFiles,
    parsed.productId,
    { kind: 'print', ...body.data.data.attributes },
    parsed.via,
  );
  return allowanceDocument(context, outcome, body.data.data.attributes);
}
