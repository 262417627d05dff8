import { createReadStream } from 'node:fs';
import { copyFile, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Queryable } from '#db/client.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import { attachBookFiles } from './book-file-import.ts';
import { isBookFileName } from './book-file-types.ts';
import {
  finishImport,
  type ImportCounts,
  type ImportReport,
  type ImportSource,
  runImport,
  startImport,
} from './catalog-import.ts';

export type FeedFileImport = {
  report: ImportReport;
  /** Book files and covers from `filesDir`, when one was given and the feed was read. */
  files: { attached: number; refused: number } | null;
};

/**
 * Imports an ONIX feed on disk, then the book files and covers of a folder beside it (issue
 * 15): the operator's command line and the demo seed take this one path, as the Admin page's
 * upload takes the same steps (importUploadedFeed). The folder's files are copied, so it stays
 * as it was; `workDir` holds the copies until the store adopts them.
 */
export async function importFeedFile(
  db: Queryable,
  store: BookFileStore,
  input: {
    feedPath: string;
    filesDir?: string | null;
    source: ImportSource;
    startedBy?: number | null;
    now: Date;
    /** Batches written at once (PostgreSQL: each on its own connection). */
    writers?: number;
    workDir: string;
    onProgress?: (counts: ImportCounts) => void;
  },
): Promise<FeedFileImport> {
  const id = await startImport(db, {
    source: input.source,
    fileName: path.basename(input.feedPath),
    totalBytes: (await stat(input.feedPath)).size,
    startedBy: input.startedBy ?? null,
  });
  const report = await runImport(
    db,
    id,
    createReadStream(input.feedPath, { highWaterMark: 256 * 1024 }),
    { now: input.now, onProgress: input.onProgress, writers: input.writers ?? 1 },
  );
  if (!input.filesDir || report.status !== 'done') return { report, files: null };
  const names = (await readdir(input.filesDir)).filter(isBookFileName);
  const work = await mkdtemp(path.join(input.workDir, 'import-files-'));
  try {
    const files = [];
    for (const name of names) {
      const localPath = path.join(work, name);
      await copyFile(path.join(input.filesDir, name), localPath);
      files.push({ fileName: name, localPath });
    }
    const result = await attachBookFiles(db, store, report.id, files, {
      fileLinks: report.fileLinks,
    });
    return { report, files: result };
  } finally {
    await rm(work, { recursive: true, force: true });
    await finishImport(db, report.id);
  }
}
