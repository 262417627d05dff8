import { createHash } from 'node:crypto';
import sharp, { type Sharp } from 'sharp';
import { COVER_SVG_WIDTH, type CoverFormat } from '#domain/catalog/cover-image.ts';

// Draws covers as AVIF, WebP or JPEG (domain/catalog/cover-image.ts says which and why). Drawing
// one takes 15 to 200 ms of a libuv thread, so each process keeps what it drew, keyed by what it
// was drawn from: a renamed product or a new publisher's image draws again. The cache is bounded
// by bytes and forgets the least recently used first; a cover asked again while it is being
// drawn waits for that drawing.

const MAX_CACHE_BYTES = 48 * 1024 * 1024;

sharp.cache(false);

export type RasterCover = { body: Buffer; etag: string };

const drawn = new Map<string, RasterCover>();
const drawing = new Map<string, Promise<RasterCover>>();
let cachedBytes = 0;

function remember(key: string, cover: RasterCover): void {
  drawn.set(key, cover);
  cachedBytes += cover.body.length;
  for (const [oldKey, old] of drawn) {
    if (cachedBytes <= MAX_CACHE_BYTES) break;
    drawn.delete(oldKey);
    cachedBytes -= old.body.length;
  }
}

// AVIF at effort 2: a fifth of the default effort's time for a few percent more bytes.
function encode(image: Sharp, format: CoverFormat): Promise<Buffer> {
  switch (format) {
    case 'avif':
      return image.avif({ quality: 55, effort: 2 }).toBuffer();
    case 'webp':
      return image.webp({ quality: 80 }).toBuffer();
    case 'jpg':
      return image.jpeg({ quality: 80, mozjpeg: true }).toBuffer();
  }
}

/** The cover `svg` drawn `width` pixels wide in `format`, with an ETag that names it. */
export function rasterCover(svg: string, width: number, format: CoverFormat): Promise<RasterCover> {
  const hash = createHash('sha256').update(svg).digest('base64url').slice(0, 22);
  return cached(`${hash}:${width}.${format}`, async () => {
    const density = 72 * Math.max(1, width / COVER_SVG_WIDTH);
    const body = await encode(sharp(Buffer.from(svg), { density }).resize({ width }), format);
    return { body, etag: `"${hash}-${width}.${format}"` };
  });
}

// A publisher's cover fits the 2:3 box every page gives a cover, on the pages' light surface,
// so a cover of any shape takes exactly the room the page kept for it (no layout shift).
const SURFACE = { r: 244, g: 244, b: 245, alpha: 1 };

/**
 * A publisher's stored cover (its bytes from `load`, named by their sha256) at `width` pixels,
 * 2:3, in `format`.
 */
export function rasterStoredCover(
  sha256: string,
  width: number,
  format: CoverFormat,
  load: () => Promise<Buffer>,
): Promise<RasterCover> {
  const tag = sha256.slice(0, 22);
  return cached(`stored:${tag}:${width}.${format}`, async () => {
    const image = sharp(await load(), { failOn: 'error', limitInputPixels: 100_000_000 })
      .rotate()
      .resize({ width, height: Math.round(width * 1.5), fit: 'contain', background: SURFACE });
    return { body: await encode(image, format), etag: `"p-${tag}-${width}.${format}"` };
  });
}

function cached(key: string, make: () => Promise<RasterCover>): Promise<RasterCover> {
  const known = drawn.get(key);
  if (known) {
    // Most recently used: to the end of the map's order.
    drawn.delete(key);
    drawn.set(key, known);
    return Promise.resolve(known);
  }
  const pending = drawing.get(key);
  if (pending) return pending;
  const work = make()
    .then((cover) => {
      remember(key, cover);
      return cover;
    })
    .finally(() => drawing.delete(key));
  drawing.set(key, work);
  return work;
}
