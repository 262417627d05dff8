// The data directory's files in a backup: book files, covers, catalog and roster imports,
// mails written to disk, the demo's kept keys — everything under DATA_DIR except the embedded
// database itself (copied as an image, embedded.ts), its lock, and uploads still arriving.
// Book files are written once under a name of their own and never removed or rewritten
// (domain/reading/file-store.ts, domain/catalog/book-file-import.ts), so copying them after
// the database image is taken leaves no row pointing at a missing file.
import { constants, type Dirent } from 'node:fs';
import { copyFile, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { type FileEntry, sha256File } from './manifest.ts';

/** Top-level entries of DATA_DIR that are not copied, and why. */
const SKIPPED = new Set([
  // The embedded database: copied as a consistent image instead.
  'pglite',
  // Whose process holds the database: meaningless in another place or time.
  'pglite.lock',
  // Uploads in progress: a finished one has been adopted under its own storage path.
  'uploads',
]);

/** Every file under `dataDir` to back up, as posix paths relative to it, sorted. */
export async function listDataFiles(dataDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string) => {
    let entries: Dirent[];
    try {
      entries = await readdir(path.join(dataDir, relative), { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      const name = relative ? path.posix.join(relative, entry.name) : entry.name;
      if (!relative && SKIPPED.has(entry.name)) continue;
      if (entry.isDirectory()) await walk(name);
      else if (entry.isFile()) found.push(name);
    }
  };
  await walk('');
  return found.sort();
}

/** Copies the files (never over an existing one) and says what each was. */
export async function copyFiles(from: string, to: string, files: string[]): Promise<FileEntry[]> {
  const entries: FileEntry[] = [];
  for (const file of files) {
    const source = path.join(from, file);
    const target = path.join(to, file);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(source, target, constants.COPYFILE_EXCL);
    // The copy's own checksum: what the backup holds is what the manifest vouches for.
    entries.push({ path: file, size: (await stat(target)).size, sha256: await sha256File(target) });
  }
  return entries;
}
