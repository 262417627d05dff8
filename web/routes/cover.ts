import { data } from 'react-router';
import { COVER_IMAGE_WIDTHS } from '#domain/catalog/cover-image.ts';
import { productCover } from '#domain/catalog/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { rasterCover, rasterStoredCover } from '#web/utils/cover-raster.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/cover.ts';

// Covers, cacheable by browsers and a CDN: GET /covers/{id}-{width}.webp, the cover drawn at
// one of the widths pages show (domain/catalog/cover-image.ts): the publisher's image where the
// catalog has one (issue 15), else the generated cover, whose SVG is GET /covers/{id}.svg. Any
// other name, width or id is not found.
const ONE_DAY = 'public, max-age=86400';

export const loader = withDomainErrors(async ({ params, request, context }: Route.LoaderArgs) => {
  const name = /^([^-.]+)(?:-([1-9]\d{1,3}))?\.(svg|webp)$/.exec(params.file);
  const id = parseId(name?.[1]);
  const width = name?.[2] === undefined ? null : Number(name[2]);
  const svgWanted = name?.[3] === 'svg' && width === null;
  const webpWanted = name?.[3] === 'webp' && width !== null && COVER_IMAGE_WIDTHS.includes(width);
  if (id === null || !(svgWanted || webpWanted)) throw data(null, { status: 404 });
  const source = await productCover(context.rc, id);
  if (width === null) {
    // The SVG address names the generated cover; a publisher's cover has only raster sizes.
    if (source.stored) throw data(null, { status: 404 });
    return new Response(source.svg, {
      headers: { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': ONE_DAY },
    });
  }
  const { stored } = source;
  let cover: Awaited<ReturnType<typeof rasterCover>> | null = null;
  if (stored) {
    try {
      cover = await rasterStoredCover(stored.sha256, width, async () =>
        Buffer.from(await context.bookFiles.read(stored.storagePath)),
      );
    } catch (error) {
      // A stored image gone or unreadable: the generated cover, never a 500.
      context.log.warn({ err: error, id }, 'stored cover unreadable');
    }
  }
  cover ??= await rasterCover(source.svg, width);
  const headers = { 'Cache-Control': ONE_DAY, ETag: cover.etag };
  if (request.headers.get('If-None-Match') === cover.etag) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(cover.body), {
    headers: { ...headers, 'Content-Type': 'image/webp' },
  });
});
