import { type BookFileStore, diskFileStore } from '#domain/reading/file-store.ts';
import type { Config } from './config.ts';

/**
 * Where this process keeps book files, covers and uploaded feeds (issue 15, decision 026): the
 * S3-compatible bucket when BOOK_FILES_S3_BUCKET is set, else the data directory. The AWS SDK
 * is loaded only for a bucket: it costs about 40 MB of memory a process that does not use it
 * (the import CLI's peak RSS, docs/benchmarks.md) should not pay.
 */
export async function createBookFileStore(
  config: Pick<Config, 'DATA_DIR' | 'bookFilesS3'>,
): Promise<BookFileStore> {
  if (!config.bookFilesS3) return diskFileStore(config.DATA_DIR);
  const { s3FileStore } = await import('./s3-file-store.ts');
  return s3FileStore(config.bookFilesS3);
}
