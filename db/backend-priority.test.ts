import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { isLocalDatabase, lowerBackendPriority } from './backend-priority.ts';
import { openDatabase } from './client.ts';

// Issue 15: a catalog import's own database work yields the CPU to the store's pages, but only
// on this machine and only to a PostgreSQL process; nothing else is ever reniced.
describe('which databases are on this machine', () => {
  it('takes loopback hosts and socket directories, and nothing else', () => {
    for (const url of [
      'postgres://u@127.0.0.1:5432/db',
      'postgres://u@localhost/db',
      'postgres://u@[::1]:5432/db',
      'postgres:///db?host=/var/run/postgresql',
    ]) {
      expect(isLocalDatabase(url), url).toBe(true);
    }
    for (const url of [
      'postgres://u@db.internal:5432/db',
      'postgres://u@10.0.0.5/db',
      'postgres://u@127.0.0.1.example.com/db',
      'postgres://u@localhost/db?host=db.internal',
      'not a url',
    ]) {
      expect(isLocalDatabase(url), url).toBe(false);
    }
  });

  it('never touches a process that is not PostgreSQL, or one of another machine', () => {
    // This test's own process is node, not postgres.
    expect(lowerBackendPriority('postgres://u@127.0.0.1/db', process.pid, 10)).toBe(false);
    expect(lowerBackendPriority('postgres://u@db.internal/db', process.pid, 10)).toBe(false);
    expect(lowerBackendPriority('postgres://u@127.0.0.1/db', 0, 10)).toBe(false);
    expect(lowerBackendPriority('postgres://u@127.0.0.1/db', -1, 10)).toBe(false);
  });
});

/** Field `n` (1-based, as proc(5) numbers them) of /proc/{pid}/stat. */
function statField(pid: number, n: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields 1 and 2 are the id and the parenthesised name, which may hold spaces.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[n - 3]);
}
const niceOf = (pid: number) => statField(pid, 19);
/** The scheduling policy, field 41: 0 the usual one, 5 SCHED_IDLE. */
const policyOf = (pid: number) => statField(pid, 41);
const SCHED_IDLE = 5;
const hasChrt = spawnSync('chrt', ['--version']).status === 0;

const url = process.env.DATABASE_URL;
// Renicing another user's process takes root (CI runs as root; PostgreSQL as postgres).
const mayRenice = process.getuid?.() === 0;
describe.skipIf(!url || !isLocalDatabase(url) || !mayRenice)(
  'an import pool on a local PostgreSQL',
  () => {
    it('runs its server processes in the background (nice and idle class), and the store’s as usual', async () => {
      const importing = await openDatabase({ url, poolSize: 1, backendNice: 10 });
      const store = await openDatabase({ url, poolSize: 1 });
      try {
        const pidOf = async (handle: typeof store) => {
          const result = await handle.db.execute(sql`select pg_backend_pid() as pid`);
          return Number((result as unknown as { rows: { pid: number }[] }).rows[0]!.pid);
        };
        const [background, foreground] = [await pidOf(importing), await pidOf(store)];
        expect(niceOf(background)).toBe(10);
        expect(niceOf(foreground)).toBe(0);
        // The import's backends run only on CPU time the store leaves (db/backend-priority.ts).
        if (hasChrt) expect(policyOf(background)).toBe(SCHED_IDLE);
        expect(policyOf(foreground)).toBe(0);
      } finally {
        await importing.close();
        await store.close();
      }
    });
  },
);
