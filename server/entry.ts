// The server build's entry: our app with the React Router build bundled beside it.
import * as build from 'virtual:react-router/server-build';
import { type App, type AppOptions, createApp } from './app.ts';
import { createHttpServer } from './http-server.ts';
import { GracefulShutdown } from './shutdown.ts';

/** The React Router build itself, for benchmarks that render its tree without the app. */
export const serverBuild = build as unknown as AppOptions['build'];

/**
 * React Router's ServerRouter from the copy bundled here (its production build, vite.config.ts):
 * a benchmark that renders the build's tree must use the same router, whose contexts the
 * routes read; the package's own export is its development build, another copy.
 */
export { ServerRouter } from 'react-router';

export function startApp(options: Partial<AppOptions> = {}) {
  return createApp({ build: serverBuild, ...options });
}

/** The HTTP server for an app, with the edge's connection limits (server.js listens on it). */
export function createServer(app: App, listener = app.listener) {
  return createHttpServer(listener, app.config, app.log);
}

/**
 * Graceful shutdown for an app's server (issue 40, server/shutdown.ts): not ready at once,
 * then the server drains, then the app's background work and database close.
 */
export function createShutdown(
  app: App,
  server: ReturnType<typeof createServer>,
  close: () => Promise<void> = () => app.close(),
) {
  return new GracefulShutdown({
    log: app.log,
    timeoutMs: app.config.SHUTDOWN_TIMEOUT_MS,
    delayMs: app.config.SHUTDOWN_DELAY_MS,
    onBegin: () => app.beginShutdown(),
    close,
  }).attach(server);
}
