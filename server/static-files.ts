import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';

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

/** Every file of the client build, listed once at start: a URL can only ever name one of these. */
export class StaticFiles {
  readonly #files = new Map<string, string>();

  constructor(root: string) {
    if (!existsSync(root)) return;
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = path.join(dir, name);
        if (statSync(full).isDirectory()) walk(full);
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
    res.statusCode = 200;
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
    const stream = createReadStream(file);
    // A file gone since start (a redeploy under us) ends this answer, not the process.
    stream.on('error', () => res.destroy());
    stream.pipe(res);
    return true;
  }
}
