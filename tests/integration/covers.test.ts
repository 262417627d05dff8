import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { COVER_IMAGE_WIDTHS, coverImage } from '#domain/catalog/cover-image.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testWebContext } from '#tests/database.ts';
import { loader } from '#web/routes/cover.ts';

let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function cover(file: string, headers: Record<string, string> = {}): Promise<Response> {
  try {
    return (await loader({
      request: new Request(`http://localhost/covers/${file}`, { headers }),
      params: { file },
      context: testWebContext(database),
    } as unknown as Parameters<typeof loader>[0])) as Response;
  } catch (thrown) {
    // React Router's data(null, { status }) is thrown as a DataWithResponseInit.
    const init = (thrown as { init?: { status?: number } }).init;
    return new Response(null, { status: init?.status ?? 500 });
  }
}

// Issue 13: pages show covers as WebP drawn from the generated SVG, at the size they show them
// and at twice it, so that a phone's main thread does not lay out an SVG document per cover.
describe('GET /covers/{id}-{width}.webp', () => {
  it('draws the cover at each width a page asks for, as WebP of that width', async () => {
    const id = await insertProduct(database.db, { title: 'Raster Cover Chemistry' });
    const { src, srcSet } = coverImage(id, 160);
    expect(src).toBe(`/covers/${id}-160.webp`);
    expect(srcSet).toBe(`/covers/${id}-160.webp 1x, /covers/${id}-320.webp 2x`);
    for (const width of [160, 320, 600]) {
      const response = await cover(`${id}-${width}.webp`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/webp');
      expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(width);
      // The SVG is 2:3; so is its drawing.
      expect(meta.height).toBe(width * 1.5);
    }
  });

  it('answers 304 to a browser that has this drawing, and a new one once the title changes', async () => {
    const id = await insertProduct(database.db, { title: 'Cached Cover' });
    const first = await cover(`${id}-192.webp`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+-192"$/);
    expect((await cover(`${id}-192.webp`, { 'If-None-Match': etag! })).status).toBe(304);
    const other = await insertProduct(database.db, { title: 'Another Cover' });
    const second = await cover(`${other}-192.webp`);
    expect(second.headers.get('etag')).not.toBe(etag);
  });

  it('keeps the SVG itself, and answers 404 to any other name, width or id', async () => {
    const id = await insertProduct(database.db, { title: 'Vector Cover' });
    const svg = await cover(`${id}.svg`);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(await svg.text()).toContain('Vector Cover');
    expect(COVER_IMAGE_WIDTHS).not.toContain(97);
    for (const file of [
      `${id}-97.webp`,
      `${id}-0160.webp`,
      `${id}.webp`,
      `${id}-160.svg`,
      `${id}-160.png`,
      `-${id}-160.webp`,
      '2147483648-160.webp',
      `${id}-160.webp.exe`,
    ]) {
      expect((await cover(file)).status, file).toBe(404);
    }
    expect((await cover('2147483000-160.webp')).status).toBe(404);
  });
});
