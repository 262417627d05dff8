import { execFile, execFileSync } from 'node:child_process';
import {
  appendFileSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backupPostgres, restorePostgres } from '#db/backup/postgres.ts';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { migrateDatabase } from '#db/migrate.ts';
import { diskFileStore } from '#domain/reading/file-store.ts';
import { openedWhereLeft, readShopHistory, writeShopHistory } from '#tests/backup-fixture.ts';
import { findPostgresBin, freePort, sleep, whyNoPostgres } from './harness.ts';

// Issue 40, "Backups", on PostgreSQL as docs/backups.md tells an operator to do it, with
// Debian's own programs on a cluster of this test's own (127.0.0.1 only):
// (a) `npm run backup` (pg_dump -Fc in the snapshot the rows are counted in) restored by
//     `npm run restore` (pg_restore --no-owner) into a new database, with the book files;
// (b) a base backup (pg_basebackup) with continuous WAL archiving (archive_command), restored
//     into a new data directory with restore_command, recovery.signal and recovery_target_time:
//     the orders written after the base backup are there, those after the target time are not.
// Every order, ownership and reading position is found again.

const execFileAsync = promisify(execFile);
const asRoot = process.getuid?.() === 0;
const BUYERS = 3;

const skipReason = whyNoPostgres();
if (skipReason) console.warn(`PostgreSQL backup test skipped: ${skipReason}`);

/** A PostgreSQL program, as the postgres user when this runs as root (as .ci/run does). */
async function asPostgres(program: string, args: string[]): Promise<string> {
  const bin = path.join(findPostgresBin()!, program);
  const [file, argv] = asRoot ? ['runuser', ['-u', 'postgres', '--', bin, ...args]] : [bin, args];
  const { stdout } = await execFileAsync(file, argv, { timeout: 60_000 });
  return stdout;
}

function ownedByPostgres(dir: string): string {
  mkdirSync(dir, { recursive: true });
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  return dir;
}

type Instance = { port: number; dataDir: string; url(database: string): string };

/** pg_ctl start on a free port of 127.0.0.1, with these settings on top of the data dir's. */
async function startInstance(dataDir: string, settings: string[]): Promise<Instance> {
  const port = await freePort();
  const options = [
    `-p ${port}`,
    '-k /tmp',
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    ...settings.map((s) => `-c ${s}`),
  ].join(' ');
  const log = `${dataDir}.log`;
  await asPostgres('pg_ctl', ['-D', dataDir, '-o', options, '-w', '-l', log, 'start']).catch(
    (error: Error) => {
      throw new Error(`${error.message}\n${existsSync(log) ? readFileSync(log, 'utf8') : ''}`);
    },
  );
  return { port, dataDir, url: (database) => `postgres://shelfmark@127.0.0.1:${port}/${database}` };
}

async function stopInstance(instance: Instance | undefined): Promise<void> {
  if (!instance) return;
  await asPostgres('pg_ctl', ['-D', instance.dataDir, '-m', 'immediate', 'stop']).catch(
    () => undefined,
  );
}

async function scalar<T>(url: string, query: string): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const [row] = (await client.query(query)).rows as object[];
    return (row ? Object.values(row)[0] : undefined) as T;
  } finally {
    await client.end();
  }
}

async function within<T>(ms: number, what: string, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await sleep(100);
  }
}

describe.skipIf(skipReason !== null)('PostgreSQL backups, restored into fresh databases', () => {
  let root: string;
  let archive: string;
  let primary: Instance;
  let restoredInstance: Instance | undefined;
  let database: DatabaseHandle;
  let dataDir: string;

  beforeAll(async () => {
    root = ownedByPostgres(mkdtempSync(path.join(tmpdir(), 'shelfmark-backup-pg-')));
    archive = ownedByPostgres(path.join(root, 'wal-archive'));
    const primaryDir = ownedByPostgres(path.join(root, 'primary'));
    await asPostgres('initdb', ['-D', primaryDir, '-U', 'shelfmark', '--auth=trust', '-E', 'UTF8']);
    // Continuous archiving as docs/backups.md sets it: every finished WAL segment copied to
    // the archive, never over one already there.
    appendFileSync(
      path.join(primaryDir, 'postgresql.conf'),
      `wal_level = replica\narchive_mode = on\narchive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'\n`,
    );
    primary = await startInstance(primaryDir, []);
    await scalar(primary.url('postgres'), 'create database shelfmark');
    database = await openDatabase({ url: primary.url('shelfmark'), poolSize: 4 });
    await migrateDatabase(database);
    dataDir = mkdtempSync(path.join(tmpdir(), 'shelfmark-backup-pg-data-'));
  });
  afterAll(async () => {
    await database?.close();
    await stopInstance(restoredInstance);
    await stopInstance(primary);
    if (root) rmSync(root, { recursive: true, force: true });
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('npm run backup, then npm run restore into a new database: every order, ownership, position and file', async () => {
    const store = diskFileStore(dataDir);
    const history = await writeShopHistory(database.db, store, BUYERS);
    expect(history.orders).toHaveLength(BUYERS);

    const backup = path.join(root, 'logical');
    const manifest = await backupPostgres({ url: primary.url('shelfmark'), to: backup, dataDir });
    expect(manifest.files.map((f) => f.path)).toEqual(
      history.files.map((f) => f.storagePath).sort(),
    );

    await scalar(primary.url('postgres'), 'create database shelfmark_restored');
    const restoredDir = path.join(root, 'logical-restored-data');
    const restored = await restorePostgres({
      from: backup,
      url: primary.url('shelfmark_restored'),
      dataDir: restoredDir,
    });
    expect(restored.rows).toEqual(manifest.database.rows);
    const copy = await openDatabase({ url: primary.url('shelfmark_restored'), poolSize: 2 });
    try {
      const { files: _files, ...written } = history;
      expect(await readShopHistory(copy.db, history.userIds)).toEqual(written);
      expect(await openedWhereLeft(copy.db, diskFileStore(restoredDir), history)).toEqual(
        history.positions,
      );
    } finally {
      await copy.close();
    }
    // A database that already holds the store is never restored over.
    await expect(
      restorePostgres({ from: backup, url: primary.url('shelfmark'), dataDir: null }),
    ).rejects.toThrow(/not empty/);
  });

  it('a base backup and the archived WAL recover to a moment: orders after the base backup, none after the target', async () => {
    const store = diskFileStore(dataDir);
    const base = path.join(root, 'base');
    await asPostgres('pg_basebackup', [
      '-h',
      '127.0.0.1',
      '-p',
      String(primary.port),
      '-U',
      'shelfmark',
      '-D',
      base,
      '--checkpoint=fast',
      '--wal-method=stream',
    ]);
    const before = await readShopHistory(
      database.db,
      (await database.db.query.users.findMany({ columns: { id: true } })).map((u) => u.id),
    );
    const after = await writeShopHistory(database.db, store, BUYERS);
    // The target: after every commit of `after`, before any of `later`.
    await sleep(50);
    const target = await scalar<string>(primary.url('shelfmark'), 'select clock_timestamp()::text');
    await sleep(50);
    const later = await writeShopHistory(database.db, store, 1);
    const lastSegment = await scalar<string>(
      primary.url('shelfmark'),
      'select pg_walfile_name(pg_switch_wal())',
    );
    await within(20_000, `WAL segment ${lastSegment} archived`, async () =>
      existsSync(path.join(archive, lastSegment)) ? true : null,
    );

    // docs/backups.md, "Point-in-time recovery", step by step.
    writeFileSync(path.join(base, 'recovery.signal'), '');
    appendFileSync(
      path.join(base, 'postgresql.auto.conf'),
      [
        `restore_command = 'cp ${archive}/%f %p'`,
        `recovery_target_time = '${target}'`,
        `recovery_target_action = 'promote'`,
        // The copy must not archive into the primary's archive.
        'archive_mode = off',
        '',
      ].join('\n'),
    );
    restoredInstance = await startInstance(base, []);
    const url = restoredInstance.url('shelfmark');
    await within(30_000, 'the recovered cluster promoted', async () =>
      (await scalar<boolean>(url, 'select pg_is_in_recovery()')) ? null : true,
    );
    const recovered = await openDatabase({ url, poolSize: 2 });
    try {
      const all = [...before.userIds, ...after.userIds];
      const found = await readShopHistory(recovered.db, all);
      const expected = await readShopHistory(database.db, all);
      expect(found).toEqual(expected);
      expect(found.orders.filter((o) => after.userIds.includes(o.userId))).toHaveLength(BUYERS);
      expect(found.positions.filter((p) => after.userIds.includes(p.userId))).toEqual(
        after.positions,
      );
      expect(await openedWhereLeft(recovered.db, store, after)).toEqual(after.positions);
      // Written after the target time: not recovered.
      expect((await readShopHistory(recovered.db, later.userIds)).orders).toEqual([]);
    } finally {
      await recovered.close();
    }
  });
});
