import { AsyncLocalStorage } from 'node:async_hooks';

// Mail links lead to the site the person was on (issue 37): a student of a white-label store
// who asks for a reset link gets one on that store's own host, not the main site's. The server
// runs each request within the host of its white-label site (withMailHost); a message queued
// meanwhile keeps that host (outbox.ts), and the worker writes its links there (mailOrigin).
// Only a white label's host, which comes from the database, is ever kept: the main site's host
// is whatever the request's Host header said, and a link to that would send a reset token to
// whoever forged it. Work outside a request (the sweeper) queues mail for PUBLIC_ORIGIN.

const current = new AsyncLocalStorage<string | null>();

export function withMailHost<T>(host: string | null, run: () => T): T {
  return current.run(host, run);
}

/** The white-label host of the request under way, or null (the store's PUBLIC_ORIGIN). */
export function currentMailHost(): string | null {
  return current.getStore() ?? null;
}

/**
 * The origin a message's links use: PUBLIC_ORIGIN, or its scheme and port on the white-label
 * host the message was queued from.
 */
export function mailOrigin(host: string | null, publicOrigin: string): string {
  const base = new URL(publicOrigin);
  if (!host || !/^[a-z0-9.-]{1,253}$/.test(host)) return base.origin;
  return `${base.protocol}//${host}${base.port ? `:${base.port}` : ''}`;
}
