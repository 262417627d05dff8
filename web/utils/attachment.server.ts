import { data, type EntryContext } from 'react-router';

/**
 * A file a page route answers instead of a page (the opt-status CSV, a receipt's PDF). The route stays a page
 * route, with the shared error boundary, so a forbidden or missing file is the site's error
 * page in the visitor's language, not the bare JSON a resource route would send (issue 18).
 * Its loader returns `attachment(...)`; `entry.server.tsx` sends it as the response.
 */
export function attachment<Body extends string | Uint8Array>(
  body: Body,
  { filename, contentType }: { filename: string; contentType: string },
) {
  return data(body, {
    headers: {
      'Content-Type': contentType,
      'Content-Disposition': `attachment; filename="${filename.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

/** The attachment the page's own route answered with, as the response, or null for a page. */
export function attachmentResponse(context: EntryContext): Response | null {
  const state = context.staticHandlerContext;
  const leaf = state.matches.at(-1)?.route.id;
  if (!leaf || state.errors || state.statusCode !== 200) return null;
  const headers = state.loaderHeaders[leaf];
  const body = state.loaderData[leaf];
  if (
    !(typeof body === 'string' || body instanceof Uint8Array) ||
    !headers?.get('Content-Disposition')?.startsWith('attachment')
  ) {
    return null;
  }
  return new Response(body as BodyInit, { status: 200, headers });
}
