import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compressWhole } from './compression.ts';

// A page whole in memory is compressed in one go and sent with its length (server/edge.ts
// send): what the browser unpacks is the page, byte for byte, in either encoding.
describe('compressWhole', () => {
  const page = Buffer.from(
    `<!DOCTYPE html><title>Étagère</title>${'<p>a shelf of books</p>'.repeat(2_000)}`,
  );

  it('brotli: smaller, and the same page once unpacked', async () => {
    const packed = await compressWhole(page, 'br');
    expect(packed.length).toBeLessThan(page.length / 10);
    expect(zlib.brotliDecompressSync(packed).equals(page)).toBe(true);
  });

  it('gzip: smaller, and the same page once unpacked', async () => {
    const packed = await compressWhole(page, 'gzip');
    expect(packed.length).toBeLessThan(page.length / 10);
    expect(zlib.gunzipSync(packed).equals(page)).toBe(true);
  });
});
