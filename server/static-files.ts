import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { type Encoding, preferredEncoding, varyOnEncoding } from './compression.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  // pdf.js's worker, which the reader starts as a module from our origin (CSP: 'self').
  '.mjs': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json',
};

const SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };

/**
 * Every file of the client build, listed once at start: a URL can only ever name one of these.
 * The .br and .gz copies scripts/precompress.js made at build are answered, not named.
 */
export class StaticFiles {
  readonly #files = new Map<string, string>();
  readonly #encoded = new Set<string>();

  constructor(root: string) {
    if (!existsSync(root)) return;
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
        else if (/\.(br|gz)$/.test(name)) this.#encoded.add(full);
        else this.#files.set(`/${path.relative(root, full).split(path.sep).join('/')}`, full);
      }
    };
    walk(root);
  }

  has(pathname: string): boolean {
    return this.#files.has(pathname);
  }

  /** Answers a GET or HEAD for a built file; false when the URL names none. */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const pathname = (req.url ?? '/').split('?')[0]!;
    const file = this.#files.get(pathname);
    if (!file) return false;
    const encodings = (['br', 'gzip'] as const).filter((e) => this.#encoded.has(file + SUFFIX[e]));
    const encoding =
      encodings.length > 0 ? preferredEncoding(req.headers['accept-encoding']) : null;
    const sent = encoding && encodings.includes(encoding) ? file + SUFFIX[encoding] : file;
    res.statusCode = 200;
    if (encodings.length > 0) res.setHeader('Vary', varyOnEncoding(undefined));
    if (sent !== file) res.setHeader('Content-Encoding', encoding!);
    res.setHeader('Content-Type', TYPES[path.extname(file)] ?? 'application/octet-stream');
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader(
      'Cache-Control',
      pathname.startsWith('/assets/')
        ? 'public, max-age=31536000, immutable'
        : 'public, max-age=3600',
    );
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    const stream = createReadStream(sent);
    // A file gone since start (a redeploy under us) ends this answer, not the process.
    stream.on('error', () => res.destroy());
    stream.pipe(res);
    return true;
  }
}
