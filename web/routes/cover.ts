import { data } from 'react-router';
import {
  COVER_FORMATS,
  COVER_IMAGE_WIDTHS,
  COVER_MEDIA_TYPES,
  type CoverFormat,
} from '#domain/catalog/cover-image.ts';
import { productCover } from '#domain/catalog/service.ts';
import { parseId } from '#domain/shared/id.ts';
import { rasterCover, rasterStoredCover } from '#web/utils/cover-raster.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import type { Route } from './+types/cover.ts';

// Covers, cacheable by browsers and a CDN: GET /covers/{id}-{width}.{avif|webp|jpg}, the cover
// drawn at one of the widths pages show (domain/catalog/cover-image.ts): the publisher's image
// where the catalog has one (issue 15), else the generated cover, whose SVG is GET
// /covers/{id}.svg. An address with the cover's current version (`?v=`, cover-version.ts) is
// kept a year, since a new image is a new version; any other, a day. Any other name, width,
// format or id is not found.
const ONE_DAY = 'public, max-age=86400';
const ONE_YEAR = 'public, max-age=31536000, immutable';
const NAME = /^([^-.]+)(?:-([1-9]\d{1,3}))?\.([a-z]+)$/;

function isCoverFormat(extension: string | undefined): extension is CoverFormat {
  return (COVER_FORMATS as readonly string[]).includes(extension ?? '');
}

export const loader = withDomainErrors(async ({ params, request, context }: Route.LoaderArgs) => {
  const name = NAME.exec(params.file);
  const id = parseId(name?.[1]);
  const width = name?.[2] === undefined ? null : Number(name[2]);
  const extension = name?.[3];
  const svgWanted = extension === 'svg' && width === null;
  const format = isCoverFormat(extension) ? extension : null;
  const rasterWanted = format !== null && width !== null && COVER_IMAGE_WIDTHS.includes(width);
  if (id === null || !(svgWanted || rasterWanted)) throw data(null, { status: 404 });
  const source = await productCover(context.catalogRc, id);
  const askedVersion = new URL(request.url).searchParams.get('v');
  let cacheControl = askedVersion === source.version ? ONE_YEAR : ONE_DAY;
  if (width === null || format === null) {
    // The SVG address names the generated cover; a publisher's cover has only raster sizes.
    if (source.stored) throw data(null, { status: 404 });
    return new Response(source.svg, {
      headers: { 'Content-Type': 'image/svg+xml; charset=utf-8', 'Cache-Control': cacheControl },
    });
  }
  const { stored } = source;
  let cover: Awaited<ReturnType<typeof rasterCover>> | null = null;
  if (stored) {
    try {
      cover = await rasterStoredCover(stored.sha256, width, format, async () =>
        Buffer.from(await context.bookFiles.read(stored.storagePath)),
      );
    } catch (error) {
      // A stored image gone or unreadable: the generated cover for a day, never a 500.
      context.log.warn({ err: error, id }, 'stored cover unreadable');
      cacheControl = ONE_DAY;
    }
  }
  cover ??= await rasterCover(source.svg, width, format);
  const headers = { 'Cache-Control': cacheControl, ETag: cover.etag };
  if (request.headers.get('If-None-Match') === cover.etag) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(cover.body), {
    headers: { ...headers, 'Content-Type': COVER_MEDIA_TYPES[format] },
  });
});
