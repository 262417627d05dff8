import { promisify } from 'node:util';
import zlib from 'node:zlib';

// Compressed answers (issue 13, "Fast on a phone"): brotli where the browser takes it, else
// gzip. Built files are compressed once at build (scripts/precompress.js, best quality);
// stored pages once per page (a middle quality); every other answer while it streams (a fast
// quality: a page is rendered for one visitor only).

export type Encoding = 'br' | 'gzip';

/** The encoding to answer with for this Accept-Encoding, or null for none. */
export function preferredEncoding(acceptEncoding: string | null | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    accepted.set(name.trim(), q ? Number(q.slice(2)) || 0 : 1);
  }
  const weight = (name: Encoding) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0 && weight('br') >= weight('gzip')) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

const COMPRESSIBLE =
  /^(text\/|application\/(json|vnd\.api\+json|javascript|xml|manifest\+json)|image\/svg\+xml|[^;]*\+(json|xml))/;

/** Text-like bodies shrink; images, fonts, EPUB and PDF files are compressed already. */
export function isCompressible(contentType: string | null | undefined): boolean {
  return COMPRESSIBLE.test((contentType ?? '').toLowerCase());
}

/** A body compressed whole, at a middle quality (stored pages). */
export function compressBuffer(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? zlib.brotliCompressSync(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 6,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : zlib.gzipSync(body, { level: 6 });
}

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/**
 * A page or an API answer already whole in memory, compressed in one go off the event loop at
 * the fast quality: sent with its length in one write, so that a process killed mid-answer
 * never leaves a proxy holding half a response it can no longer retry (decision 044).
 */
export function compressWhole(body: Buffer, encoding: Encoding): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, {
        params: {
          [zlib.constants.BROTLI_PARAM_QUALITY]: 4,
          [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        },
      })
    : gzip(body, { level: 5 });
}

/** A stream that compresses as it goes, at a fast quality (pages rendered for one visitor). */
export function compressStream(encoding: Encoding): zlib.BrotliCompress | zlib.Gzip {
  return encoding === 'br'
    ? zlib.createBrotliCompress({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })
    : zlib.createGzip({ level: 5 });
}

/** The ETag of an encoded representation: each encoding is a different body. */
export function encodedEtag(etag: string, encoding: Encoding | null): string {
  return encoding && etag.endsWith('"') ? `${etag.slice(0, -1)}-${encoding}"` : etag;
}

/** Adds Accept-Encoding to a Vary header value. */
export function varyOnEncoding(vary: string | null | undefined): string {
  if (!vary) return 'Accept-Encoding';
  return /(^|,)\s*accept-encoding\s*(,|$)/i.test(vary) ? vary : `${vary}, Accept-Encoding`;
}
