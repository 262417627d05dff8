// Starts Shelfmark: one node:http server for pages, static assets and the JSON:API.
// Production runs the built server (build/server/index.js); `--dev` runs Vite in middleware mode.
import { createReadStream, readdirSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';

const dev = process.argv.includes('--dev');
process.env.NODE_ENV ??= dev ? 'development' : 'production';
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

const TYPES = {
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

/** Every file of build/client, listed once: a URL can only ever name one of these. */
function staticFiles(root) {
  const files = new Map();
  const walk = (dir) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.set(`/${path.relative(root, full).split(path.sep).join('/')}`, full);
    }
  };
  walk(root);
  return files;
}

function serveStatic(files, req, res) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const pathname = (req.url ?? '/').split('?')[0];
  const file = files.get(pathname);
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
  if (req.method === 'HEAD') res.end();
  else createReadStream(file).pipe(res);
  return true;
}

async function main() {
  let listener;
  let close;
  if (dev) {
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    const { startApp } = await vite.ssrLoadModule('./server/entry.ts');
    const app = await startApp();
    close = () => Promise.all([app.close(), vite.close()]);
    listener = (req, res) => vite.middlewares(req, res, () => app.listener(req, res));
  } else {
    const { startApp } = await import('./build/server/index.js');
    const app = await startApp();
    close = () => app.close();
    const files = staticFiles(path.resolve('build/client'));
    listener = (req, res) => {
      if (!serveStatic(files, req, res)) app.listener(req, res);
    };
  }
  const server = http.createServer(listener);
  server.keepAliveTimeout = 65_000;
  server.listen(port, host, () => {
    console.log(`Shelfmark is running at http://localhost:${port}`);
  });
  const stop = () => {
    server.close();
    void close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
