import { type BookFileStore, diskFileStore } from '#domain/reading/file-store.ts';
import type { Config } from './config.ts';
import { s3FileStore } from './s3-file-store.ts';

/**
 * Where this process keeps book files, covers and uploaded feeds (issue 15, decision 026): the
 * S3-compatible bucket when BOOK_FILES_S3_BUCKET is set, else the data directory.
 */
export function createBookFileStore(
  config: Pick<Config, 'DATA_DIR' | 'bookFilesS3'>,
): BookFileStore {
  return config.bookFilesS3 ? s3FileStore(config.bookFilesS3) : diskFileStore(config.DATA_DIR);
}
