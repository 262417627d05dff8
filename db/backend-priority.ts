import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

// A catalog import shares the machine with the store on a small deployment (one host running
// the app and PostgreSQL, as on this 2-core machine): its own process runs at a lower CPU
// priority, and so can the PostgreSQL server processes that do its writing, so that shoppers'
// pages keep the CPU (issue 15). Only where that is safe and allowed: the database is reached
// on this machine (loopback or a socket), the process id the server gives names a `postgres`
// process here, and the operating system lets us (the same user, or root). Anywhere else
// (a database on its own host, a container's own process ids) nothing is changed.
//
// Lower priority is two things on Linux. A nice value alone still gives the import a share of
// each core whenever the store's process wants it too (nice 10 weighs a tenth of nice 0), and
// that share was enough to hold a product page 100-500 ms behind it a few times a minute
// (docs/benchmarks.md, session 15). The idle scheduling class (SCHED_IDLE) runs a process
// only on CPU time nobody else at the usual class wants: the store's requests then never wait
// behind the import, and the import takes everything the store leaves. Node has no call for a
// scheduling class, so util-linux's `chrt` sets it (in every Debian install); where it is
// missing or refused, the nice value stays. An import's transaction can hold a product's row a
// store request wants to write; the import still runs on every cycle the store leaves idle,
// so that wait is bounded by the import's batch, as it was at nice 10.

/** The nice value of an import's processes (with the idle scheduling class where allowed). */
export const BACKGROUND_NICE = 10;

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
 * Runs process `pid` (with all its threads when `allThreads`) in the background: at `nice`,
 * and in the idle scheduling class where `chrt` may set it. Says whether the nice value took.
 */
export function runInBackground(pid: number, nice: number, allThreads = false): boolean {
  try {
    setPriority(pid, nice);
  } catch {
    return false;
  }
  spawnSync('chrt', [...(allThreads ? ['--all-tasks'] : []), '--idle', '--pid', '0', String(pid)], {
    stdio: 'ignore',
    timeout: 2_000,
  });
  return true;
}

/**
 * Runs the server process `pid` of a connection to `url` in the background (`runInBackground`)
 * when it is a PostgreSQL process on this machine and we may; says whether it did.
 */
export function lowerBackendPriority(url: string, pid: number, nice: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0 || !isLocalDatabase(url) || !isPostgresProcess(pid)) {
    return false;
  }
  return runInBackground(pid, nice);
}
