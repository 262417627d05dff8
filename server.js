// Starts Shelfmark: one node:http server for pages, static assets and the JSON:API.
// Production runs the built server (build/server/index.js); `--dev` runs Vite in middleware mode.
// Every request passes the edge first (server/edge.ts); the server's limits are in
// server/http-server.ts and docs/edge.md.
import path from 'node:path';

const dev = process.argv.includes('--dev');
process.env.NODE_ENV ??= dev ? 'development' : 'production';
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

async function main() {
  let server;
  let close;
  let log;
  if (dev) {
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    const entry = await vite.ssrLoadModule('./server/entry.ts');
    const app = await entry.startApp();
    log = app.log;
    close = () => Promise.all([app.close(), vite.close()]);
    server = entry.createServer(app, (req, res) =>
      vite.middlewares(req, res, () => app.listener(req, res)),
    );
  } else {
    const entry = await import('./build/server/index.js');
    const app = await entry.startApp({ staticDir: path.resolve('build/client') });
    log = app.log;
    close = () => app.close();
    server = entry.createServer(app);
  }
  // A request never ends the process (issue 18): what escapes every handler is logged here.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  process.on('uncaughtException', (error) => log.fatal({ err: error }, 'uncaught exception'));
  server.listen(port, host, () => {
    console.log(`Shelfmark is running at http://localhost:${port}`);
  });
  const stop = () => {
    server.close();
    server.closeAllConnections?.();
    void close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((error) => {
  // Refusals that say what to do (the embedded database held by another process, issue 37)
  // are said without a stack trace.
  console.error(error?.name === 'EmbeddedDatabaseInUse' ? error.message : error);
  process.exit(1);
});
