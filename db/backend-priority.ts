import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

// A catalog import shares the machine with the store on a small deployment (one host running
// the app and PostgreSQL, as on this 2-core machine): its own process runs at a lower CPU
// priority, and so can the PostgreSQL server processes that do its writing, so that shoppers'
// pages keep the CPU (issue 15). Only where that is safe and allowed: the database is reached
// on this machine (loopback or a socket), the process id the server gives names a `postgres`
// process here, and the operating system lets us (the same user, or root). Anywhere else
// (a database on its own host, a container's own process ids) nothing is changed.

const LOCAL_HOSTS = new Set(['', 'localhost', '127.0.0.1', '[::1]', '::1']);

/** True when the connection string reaches PostgreSQL on this machine. */
export function isLocalDatabase(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  const socketDirectory = parsed.searchParams.get('host');
  if (socketDirectory !== null) return socketDirectory.startsWith('/');
  return LOCAL_HOSTS.has(parsed.hostname);
}

function isPostgresProcess(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres';
  } catch {
    return false;
  }
}

/**
 * Runs the server process `pid` of a connection to `url` at `nice` when it is a PostgreSQL
 * process on this machine and we may; says whether it did.
 */
export function lowerBackendPriority(url: string, pid: number, nice: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isLocalDatabase(url) || !isPostgresProcess(pid)) {
    return false;
  }
  try {
    setPriority(pid, nice);
    return true;
  } catch {
    return false;
  }
}
