import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '#db/client.ts';
import { diskFileStore } from '#domain/reading/file-store.ts';
import {
  openedWhereLeft,
  readShopHistory,
  type ShopHistory,
  writeShopHistory,
} from '#tests/backup-fixture.ts';
import { backupEmbedded, restoreEmbedded } from './embedded.ts';
import { BackupRefusal, FILES_DIR, type Manifest } from './manifest.ts';

// Issue 40, "Backups": the embedded database and its book files, backed up by
// `npm run backup` and restored into a fresh directory, hold every order, ownership, reading
// position and book file the store had. PGlite only: on PostgreSQL (DATABASE_URL) the
// resilience suite tests pg_dump and base backups on a cluster of its own.
const onPglite = !process.env.DATABASE_URL;

describe.skipIf(!onPglite)('backup and restore of the embedded database', () => {
  let root: string;
  let dataDir: string;
  let history: ShopHistory;
  let backup: string;
  let manifest: Manifest;

  beforeAll(async () => {
    root = mkdtempSync(path.join(tmpdir(), 'shelfmark-backup-'));
    dataDir = path.join(root, 'data');
    const template = new Blob([readFileSync(inject('pgliteTemplate'))]);
    const database = await openDatabase({ dataDir, loadDataDir: template });
    try {
      history = await writeShopHistory(database.db, diskFileStore(dataDir), 4);
    } finally {
      await database.close();
    }
    // Kept keys and mails beside the database are part of the data directory too.
    writeFileSync(path.join(dataDir, 'demo-keys.json'), '{"SESSION_SECRET":"kept"}');
    backup = path.join(root, 'backup');
    manifest = await backupEmbedded({ dataDir, to: backup });
  });
  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('backs up what the store holds: 4 paid orders, owned, read, and lets the store start again', () => {
    expect(history.orders).toHaveLength(4);
    expect(history.orders.every((order) => order.status === 'fulfilled')).toBe(true);
    expect(history.ownerships.map((o) => o.orderId).sort()).toEqual(
      history.orders.map((o) => o.id).sort(),
    );
    expect(history.positions).toHaveLength(4);
    expect(manifest.database.rows).toMatchObject({
      orders: 4,
      ownerships: 4,
      reading_positions: 4,
    });
    expect(manifest.files.map((f) => f.path)).toEqual(
      [...history.files.map((f) => f.storagePath), 'demo-keys.json'].sort(),
    );
    expect(existsSync(path.join(dataDir, 'pglite.lock'))).toBe(false);
  });

  it('restored into a fresh directory: every order, ownership, position and file, byte for byte', async () => {
    const restoredDir = path.join(root, 'restored-full');
    const { rows } = await restoreEmbedded({ from: backup, dataDir: restoredDir });
    expect(rows).toEqual(manifest.database.rows);

    const restored = await openDatabase({ dataDir: restoredDir });
    try {
      const { files, ...written } = history;
      expect(await readShopHistory(restored.db, history.userIds)).toEqual(written);
      const store = diskFileStore(restoredDir);
      for (const file of files) {
        expect(await store.read(file.storagePath)).toEqual(
          readFileSync(path.join(dataDir, file.storagePath)),
        );
      }
      // The reader opens each book where its reader left it, from the restored files.
      expect(await openedWhereLeft(restored.db, store, history)).toEqual(
        history.positions.map(({ userId, productId, part, progression }) => ({
          userId,
          productId,
          part,
          progression,
        })),
      );
    } finally {
      await restored.close();
    }
    expect(readFileSync(path.join(restoredDir, 'demo-keys.json'), 'utf8')).toContain('kept');
  });

  it('refuses to copy a database the store has open, saying to stop it', async () => {
    const running = await openDatabase({ dataDir });
    try {
      const refusal = await backupEmbedded({
        dataDir,
        to: path.join(root, 'backup-refused'),
      }).catch((error: unknown) => error);
      expect(refusal).toBeInstanceOf(BackupRefusal);
      expect((refusal as Error).message).toMatch(/store is running.*stop the store/s);
      expect(existsSync(path.join(root, 'backup-refused'))).toBe(false);
    } finally {
      await running.close();
    }
  });

  it('never restores over a directory that holds anything, nor from a damaged backup', async () => {
    await expect(restoreEmbedded({ from: backup, dataDir })).rejects.toThrow(/not empty/);

    const copy = path.join(root, 'backup-damaged');
    cpSync(backup, copy, { recursive: true });
    const damaged = manifest.files.find((f) => f.path.endsWith('.epub'))!;
    const file = path.join(copy, FILES_DIR, damaged.path);
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(0) ^ 0xff, 0);
    writeFileSync(file, bytes);
    const target = path.join(root, 'restored-damaged');
    await expect(restoreEmbedded({ from: copy, dataDir: target })).rejects.toThrow(
      `${FILES_DIR}/${damaged.path}: changed`,
    );
    expect(existsSync(target)).toBe(false);
  });
});
