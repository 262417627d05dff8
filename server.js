// Starts Shelfmark: one node:http server for pages, static assets and the JSON:API.
// Production runs the built server (build/server/index.js); `--dev` runs Vite in middleware mode.
// It listens once the database is migrated; /healthz and /readyz answer a load balancer, and
// SIGTERM drains it without dropping a request (server/probes.ts, server/shutdown.ts, issue 40).
// Every request passes the edge first (server/edge.ts); the server's limits are in
// server/http-server.ts and docs/edge.md.
// On PostgreSQL in production it uses every core (issue 40): this process becomes a
// node:cluster primary that forks WEB_CONCURRENCY workers (one per core unless set), each of
// them running what follows on the same port (server/cluster.ts, docs/scaling.md). With the
// embedded database, in development, or with WEB_CONCURRENCY=1, it serves by itself.
import cluster from 'node:cluster';
import path from 'node:path';

const dev = process.argv.includes('--dev');
process.env.NODE_ENV ??= dev ? 'development' : 'production';
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '0.0.0.0';

async function main() {
  if (!dev && cluster.isPrimary) {
    // Built beside the server (scripts/build-cluster.js): it reads the configuration, so a bad
    // variable (WEB_CONCURRENCY too) stops the start before anything is forked.
    const { planProcesses, runPrimary } = await import('./build/server/cluster.js');
    const count = planProcesses(process.env);
    if (count.workers > 1) {
      runPrimary({
        count,
        onListening: () => {
          console.log(
            `Shelfmark is running at http://localhost:${port} (${count.workers} processes)`,
          );
        },
      });
      return;
    }
  }
  let server;
  let close;
  let app;
  let entry;
  if (dev) {
    const { createServer } = await import('vite');
    const vite = await createServer({ server: { middlewareMode: true }, appType: 'custom' });
    entry = await vite.ssrLoadModule('./server/entry.ts');
    app = await entry.startApp();
    close = () => Promise.all([app.close(), vite.close()]).then(() => undefined);
    server = entry.createServer(app, (req, res) =>
      vite.middlewares(req, res, () => app.listener(req, res)),
    );
  } else {
    entry = await import('./build/server/index.js');
    // A cluster's web workers leave the mail, sweeps and imports to its background process,
    // which serves no request (server/cluster.ts, issue 40); a lone process does both.
    const role = process.env.SHELFMARK_ROLE;
    if (role === 'background') {
      await runBackground(entry);
      return;
    }
    app = await entry.startApp({
      staticDir: path.resolve('build/client'),
      backgroundWork: role !== 'web',
    });
    close = () => app.close();
    server = entry.createServer(app);
  }
  const { log } = app;
  // A request never ends the process (issue 18): what escapes every handler is logged here.
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  process.on('uncaughtException', (error) => log.fatal({ err: error }, 'uncaught exception'));
  // SIGTERM (a deploy, a scale-down) or SIGINT: not ready, drain, then exit (issue 40).
  entry.createShutdown(app, server, close).onSignals();
  server.listen(port, host, () => {
    // A worker's primary says it once for all of them.
    if (cluster.isPrimary) console.log(`Shelfmark is running at http://localhost:${port}`);
  });
}

/**
 * The cluster's background process: the app without a listener, its outbox, order sweeper and
 * roster worker running. SIGTERM or SIGINT stops them at a safe point (the mail being sent is
 * finished, the rest given back), closes the database, and exits 0.
 */
async function runBackground(entry) {
  const app = await entry.startApp({ backgroundWork: true });
  const { log } = app;
  process.on('unhandledRejection', (reason) => log.error({ err: reason }, 'unhandled rejection'));
  process.on('uncaughtException', (error) => log.fatal({ err: error }, 'uncaught exception'));
  let stopping = false;
  const stop = async (signal) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'background process stopping');
    app.beginShutdown();
    await app.close();
    process.exit(0);
  };
  for (const signal of ['SIGTERM', 'SIGINT']) process.on(signal, () => void stop(signal));
  process.send?.('shelfmark:background-ready');
}

main().catch((error) => {
  // Refusals that say what to do (the embedded database held by another process, issue 37)
  // are said without a stack trace.
  console.error(error?.name === 'EmbeddedDatabaseInUse' ? error.message : error);
  process.exit(1);
});
