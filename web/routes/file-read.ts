import { epubResource } from '#domain/reading/book-files.ts';
import { parseId } from '#domain/shared/id.ts';
import {
  domainRefusal,
  fileResponse,
  loginFirst,
  refusal,
  viaOf,
} from '#web/utils/file-response.server.ts';
import type { Route } from './+types/file-read.ts';

// GET /file/read/{fileId}: the reader's file stream (pdf.js fetches the PDF here, in ranges);
// GET /file/read/{fileId}/{path}: an image or font inside an EPUB, for the chapter or the
// publisher's stylesheet that names it.
/** Kept beside the site's own policy (server/security-headers.ts): both apply. */
export const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox";

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const fileId = parseId(params.fileId);
  if (fileId === null) return refusal(context, 404, 'error.notFound');
  if (!context.rc.user) return loginFirst(request);
  try {
    const inner = params['*'];
    if (!inner)
      return await fileResponse(request, context, context.bookFiles, fileId, { download: false });
    const resource = await epubResource(
      context.rc,
      context.bookFiles,
      fileId,
      inner,
      viaOf(request),
    );
    const headers = new Headers({
      'Content-Type': resource.mediaType,
      // A font is no part of the book's text: kept an hour, so the next opening reuses it.
      'Cache-Control': resource.mediaType.startsWith('font/')
        ? 'private, max-age=3600'
        : 'private, no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    // An SVG opened by itself is a document: it may draw, never run or fetch anything.
    if (resource.mediaType === 'image/svg+xml') headers.set('Content-Security-Policy', SVG_POLICY);
    return new Response(new Uint8Array(resource.data), { headers });
  } catch (error) {
    return domainRefusal(context, error);
  }
}
