// Reads the entries of a ZIP archive (an EPUB's container) from its central directory.
// Publishers' files are untrusted input: every offset is bounds-checked and an entry may not
// inflate past a fixed size, so a malformed or hostile archive fails cleanly instead of
// exhausting memory.
import { inflateRawSync } from 'node:zlib';

const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_HEADER = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;
const MAX_ENTRIES = 10_000;
/** No single EPUB part (a chapter, an image) is read past this size. */
export const MAX_ENTRY_BYTES = 32 * 2 ** 20;

export class InvalidArchive extends Error {}

type Entry = { method: number; compressedSize: number; size: number; localOffset: number };

export type ZipArchive = {
  names(): string[];
  has(name: string): boolean;
  /** The entry's bytes, or null when the archive has no such entry. */
  read(name: string): Buffer | null;
  readText(name: string): string | null;
};

export function openZip(data: Buffer): ZipArchive {
  const entries = centralDirectory(data);
  const read = (name: string): Buffer | null => {
    const entry = entries.get(name);
    if (!entry) return null;
    return entryData(data, entry);
  };
  return {
    names: () => [...entries.keys()],
    has: (name) => entries.has(name),
    read,
    readText: (name) =>
      read(name)
        ?.toString('utf8')
        .replace(/^\uFEFF/, '') ?? null,
  };
}

function centralDirectory(data: Buffer): Map<string, Entry> {
  // The end record sits in the last 22 bytes plus a comment of at most 65535 bytes.
  const floor = Math.max(0, data.length - 22 - 0xffff);
  let end = -1;
  for (let i = data.length - 22; i >= floor; i--) {
    if (data.readUInt32LE(i) === END_OF_CENTRAL_DIRECTORY) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new InvalidArchive('no end of central directory');
  const count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  if (count > MAX_ENTRIES) throw new InvalidArchive('too many entries');
  const entries = new Map<string, Entry>();
  for (let i = 0; i < count; i++) {
    if (offset + 46 > data.length || data.readUInt32LE(offset) !== CENTRAL_HEADER) {
      throw new InvalidArchive('bad central directory');
    }
    const method = data.readUInt16LE(offset + 10);
    const compressedSize = data.readUInt32LE(offset + 20);
    const size = data.readUInt32LE(offset + 24);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    const localOffset = data.readUInt32LE(offset + 42);
    const nameEnd = offset + 46 + nameLength;
    if (nameEnd > data.length) throw new InvalidArchive('bad entry name');
    const name = data.toString('utf8', offset + 46, nameEnd);
    entries.set(name, { method, compressedSize, size, localOffset });
    offset = nameEnd + extraLength + commentLength;
  }
  return entries;
}

function entryData(data: Buffer, entry: Entry): Buffer {
  const at = entry.localOffset;
  if (at + 30 > data.length || data.readUInt32LE(at) !== LOCAL_HEADER) {
    throw new InvalidArchive('bad local header');
  }
  const start = at + 30 + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > data.length) throw new InvalidArchive('entry past the end of the archive');
  if (entry.size > MAX_ENTRY_BYTES) throw new InvalidArchive('entry too large');
  const raw = data.subarray(start, end);
  if (entry.method === STORED) return Buffer.from(raw);
  if (entry.method === DEFLATED) {
    try {
      return inflateRawSync(raw, { maxOutputLength: MAX_ENTRY_BYTES });
    } catch {
      throw new InvalidArchive('entry does not inflate');
    }
  }
  throw new InvalidArchive(`compression method ${entry.method} is not supported`);
}
