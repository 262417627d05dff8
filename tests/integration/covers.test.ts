import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { products } from '#db/schema/catalog.ts';
import { COVER_IMAGE_WIDTHS, coverImage } from '#domain/catalog/cover-image.ts';
import { coverVersion } from '#domain/catalog/cover-version.ts';
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
      params: { file: file.split('?')[0] },
      context: testWebContext(database),
    } as unknown as Parameters<typeof loader>[0])) as Response;
  } catch (thrown) {
    // React Router's data(null, { status }) is thrown as a DataWithResponseInit.
    const init = (thrown as { init?: { status?: number } }).init;
    return new Response(null, { status: init?.status ?? 500 });
  }
}

async function versionOf(id: number): Promise<string> {
  const [row] = await database.db
    .select({ version: coverVersion })
    .from(products)
    .where(eq(products.id, id));
  return row!.version;
}

// Issue 13: pages show covers drawn from the generated SVG, at the size they show them and at
// twice it, so that a phone's main thread does not lay out an SVG document per cover. Issue 15:
// WebP with a JPEG fallback (AVIF first for a publisher's image), and a year of cache for an
// address that names the cover's version.
describe('GET /covers/{id}-{width}.{avif|webp|jpg}', () => {
  it('draws the cover at each width a page asks for, in each format, at that width', async () => {
    const id = await insertProduct(database.db, { title: 'Raster Cover Chemistry' });
    for (const [format, type] of [
      ['webp', 'image/webp'],
      ['jpg', 'image/jpeg'],
      ['avif', 'image/avif'],
    ] as const) {
      for (const width of [160, 320, 600]) {
        const response = await cover(`${id}-${width}.${format}`);
        expect(response.status).toBe(200);
        expect(response.headers.get('content-type')).toBe(type);
        expect(response.headers.get('cache-control')).toBe('public, max-age=86400');
        const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
        expect(meta.format).toBe(format === 'jpg' ? 'jpeg' : format === 'avif' ? 'heif' : 'webp');
        expect(meta.width).toBe(width);
        // The SVG is 2:3; so is its drawing.
        expect(meta.height).toBe(width * 1.5);
      }
    }
  });

  it('gives a generated cover WebP and JPEG sources at 1x and 2x, with its version', async () => {
    const id = await insertProduct(database.db, { title: 'Sources Of A Cover' });
    const version = await versionOf(id);
    expect(version).toMatch(/^g\d+[0-9a-f]{12}$/);
    const v = `?v=${version}`;
    expect(coverImage(id, 160, version)).toEqual({
      sources: [
        {
          type: 'image/webp',
          srcSet: `/covers/${id}-160.webp${v} 1x, /covers/${id}-320.webp${v} 2x`,
        },
      ],
      src: `/covers/${id}-160.jpg${v}`,
      srcSet: `/covers/${id}-160.jpg${v} 1x, /covers/${id}-320.jpg${v} 2x`,
    });
    // A publisher's image (version 'p…') is offered as AVIF first.
    const stored = coverImage(id, 96, 'p0123456789abcdef');
    expect(stored.sources.map((source) => source.type)).toEqual(['image/avif', 'image/webp']);
  });

  it('keeps an address with the current version a year; a renamed product has a new one', async () => {
    const id = await insertProduct(database.db, { title: 'Versioned Cover' });
    const version = await versionOf(id);
    const current = await cover(`${id}-192.webp?v=${version}`);
    expect(current.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    await database.db
      .update(products)
      .set({ title: 'Versioned Cover, Renamed' })
      .where(eq(products.id, id));
    const renamed = await versionOf(id);
    expect(renamed).not.toBe(version);
    // The old address still answers, with today's drawing, kept only a day.
    const stale = await cover(`${id}-192.webp?v=${version}`);
    expect(stale.status).toBe(200);
    expect(stale.headers.get('cache-control')).toBe('public, max-age=86400');
    expect(stale.headers.get('etag')).not.toBe(current.headers.get('etag'));
    // Only what the cover is drawn from changes the version.
    await database.db.update(products).set({ description: 'New words' }).where(eq(products.id, id));
    expect(await versionOf(id)).toBe(renamed);
  });

  it('answers 304 to a browser that has this drawing, and a new one once the title changes', async () => {
    const id = await insertProduct(database.db, { title: 'Cached Cover' });
    const first = await cover(`${id}-192.webp`);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+-192\.webp"$/);
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
      `${id}-160.jpeg`,
      `${id}-160.AVIF`,
      `-${id}-160.webp`,
      '2147483648-160.webp',
      `${id}-160.webp.exe`,
    ]) {
      expect((await cover(file)).status, file).toBe(404);
    }
    expect((await cover('2147483000-160.webp')).status).toBe(404);
  });
});
