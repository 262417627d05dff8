// Where book files live: `book_files.storage_path` under the data directory (DATA_DIR). The
// path never leaves the server; it is resolved here and must stay inside the directory.
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';

export type ByteRange = { start: number; end: number };

export type BookFileStore = {
  read(storagePath: string): Promise<Buffer>;
  size(storagePath: string): Promise<number>;
  /** The file's bytes, or the inclusive range of them. */
  stream(storagePath: string, range?: ByteRange): ReadableStream<Uint8Array>;
  /** Takes a local file (an upload, a checked book file) into the store under this path. */
  adopt(storagePath: string, localPath: string): Promise<void>;
  remove(storagePath: string): Promise<void>;
};

export function diskFileStore(dataDir: string): BookFileStore {
  const root = path.resolve(dataDir);
  const locate = (storagePath: string): string => {
    const full = path.resolve(root, storagePath);
    if (!full.startsWith(root + path.sep)) throw new Error('storage path outside DATA_DIR');
    return full;
  };
  return {
    read: (storagePath) => readFile(locate(storagePath)),
    size: async (storagePath) => (await stat(locate(storagePath))).size,
    stream: (storagePath, range) =>
      Readable.toWeb(createReadStream(locate(storagePath), range)) as ReadableStream<Uint8Array>,
    async adopt(storagePath, localPath) {
      const target = locate(storagePath);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await rename(localPath, target);
      } catch (error) {
        // Another file system (a temporary directory elsewhere): copy, then let go.
        if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
        await copyFile(localPath, target);
        await rm(localPath, { force: true });
      }
    },
    remove: (storagePath) => rm(locate(storagePath), { force: true }),
  };
}
