// React's renderToString of the same tree our server renders for one page, and nothing else:
// no routing, loaders, session or hydration data. The tree (React Router's EntryContext for
// the page, with the loader data in it) is captured once from the real app, for a real
// logged-in request, then rendered for every request.
//   DATABASE_URL=… BENCH_PATH=/book/1/slug BENCH_COOKIE='sid=…' PORT=3292 npx tsx bench/render-server.ts
import http from 'node:http';
import path from 'node:path';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import type { EntryContext, ServerBuild } from 'react-router';

// The server build bundles React Router's production build (vite.config.ts `productionRouter`):
// its ServerRouter must be that copy's, whose contexts the build's routes read, so it comes
// from the build (server/entry.ts), not from the package.
const { startApp, serverBuild, ServerRouter } = (await import(
  path.resolve('build/server/index.js')
)) as {
  startApp: (options: {
    build: ServerBuild;
  }) => Promise<{ fetch: (r: Request) => Promise<Response> }>;
  serverBuild: ServerBuild;
  ServerRouter: typeof import('react-router').ServerRouter;
};
const pagePath = process.env.BENCH_PATH ?? '/';
const port = Number(process.env.PORT ?? 3292);

let captured: EntryContext | null = null;
const entry = serverBuild.entry.module;
const app = await startApp({
  build: {
    ...serverBuild,
    entry: {
      module: {
        ...entry,
        default: (request, status, headers, context, loadContext) => {
          captured = context;
          return entry.default(request, status, headers, context, loadContext);
        },
      },
    },
  },
});
const url = `http://127.0.0.1:${port}${pagePath}`;
const response = await app.fetch(
  new Request(url, { headers: { cookie: process.env.BENCH_COOKIE ?? '' } }),
);
const expected = await response.text();
if (!captured || response.status !== 200) throw new Error(`could not capture ${pagePath}`);
// The loader data's transfer to the browser is the framework's part, not React's.
const context: EntryContext = { ...(captured as EntryContext), serverHandoffStream: undefined };
const render = () =>
  `<!DOCTYPE html>${renderToString(createElement(ServerRouter, { context, url }))}`;
const html = render();
console.log(
  `render server on ${port}: ${html.length} bytes rendered, ${expected.length} bytes from the app`,
);
http
  .createServer((_req, res) => {
    const body = render();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(body);
  })
  .listen(port, '127.0.0.1');
