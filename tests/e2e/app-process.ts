import path from 'node:path';
import { startFixtureServer } from './fixture-server.ts';

// The browser journeys' server process (started by server-setup.ts with node --import tsx):
// the built app as server.js starts it in production, on the database of its environment,
// and beside it the fixture server that makes each journey's own users in that database
// (an embedded PGlite lives in one process). It tells its parent both addresses over IPC.

type Entry = typeof import('#server/entry.ts');

const token = process.env.E2E_FIXTURE_TOKEN;
if (!token) throw new Error('E2E_FIXTURE_TOKEN: the fixture server needs a token of its own');

const entry = (await import(path.resolve('build/server/index.js'))) as Entry;
const app = await entry.startApp({ staticDir: path.resolve('build/client') });
const server = entry.createServer(app);
// As server.js: a request never ends the process, what escapes every handler is logged.
process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled rejection'));
process.on('uncaughtException', (error) => app.log.fatal({ err: error }, 'uncaught exception'));
await new Promise<void>((resolve) =>
  server.listen(app.config.PORT, app.config.HOST, () => resolve()),
);
const fixtures = await startFixtureServer({
  db: app.database.db,
  accessCodeKey: app.config.accessCodeKey,
  token,
});

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  await fixtures.close();
  await app.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
// The test run ended without telling us (killed): do not outlive it.
process.on('disconnect', () => void stop());

process.send?.({
  baseUrl: `http://127.0.0.1:${app.config.PORT}`,
  fixtures: fixtures.url,
});
