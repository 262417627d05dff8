// Minimal ZIP writer (and reader, for verification) for EPUB packaging. Hand-written because
// EPUB needs control a general zip library rarely exposes: the mimetype entry must come first,
// stored uncompressed, with no extra field, so that readers can sniff the first bytes.
// Only what EPUB needs is supported: no ZIP64, no encryption, no data descriptors.
import { deflateRawSync, inflateRawSync } from 'node:zlib';

export type ZipEntryInput = {
  /** Forward-slash path inside the archive, e.g. "OEBPS/content.opf". */
  name: string;
  data: Uint8Array | string;
  /** Defaults to true; entries are stored anyway when deflate would not make them smaller. */
  compress?: boolean;
};

export type ZipOptions = {
  /**
   * Timestamp written on every entry. Defaults to a fixed date so the same input always
   * produces byte-identical archives (seed data, snapshot tests, cache keys).
   */
  modified?: Date;
};

export type ZipEntry = {
  name: string;
  /** 0 = stored, 8 = deflated. */
  method: number;
  data: Buffer;
  /** Byte offset of the local file header. */
  offset: number;
};

const LOCAL_HEADER = 0x04034b50;
const CENTRAL_HEADER = 0x02014b50;
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const STORED = 0;
const DEFLATED = 8;
const UTF8_NAMES = 0x0800;
const DEFAULT_MODIFIED = new Date(Date.UTC(2024, 0, 1, 0, 0, 0));

// node:zlib only gained crc32() in Node 22; we support Node 20.
const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(data: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < data.length; i++) {
    crc = (CRC_TABLE[(crc ^ (data[i] as number)) & 0xff] as number) ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function dosDateTime(date: Date): { time: number; date: number } {
  // DOS timestamps cannot represent years before 1980; UTC keeps output machine-independent.
  const year = Math.max(1980, Math.min(2107, date.getUTCFullYear()));
  return {
    time: (date.getUTCHours() << 11) | (date.getUTCMinutes() << 5) | (date.getUTCSeconds() >> 1),
    date: ((year - 1980) << 9) | ((date.getUTCMonth() + 1) << 5) | date.getUTCDate(),
  };
}

export function createZip(entries: readonly ZipEntryInput[], options: ZipOptions = {}): Buffer {
  if (entries.length > 0xffff) throw new RangeError('ZIP64 is not supported: too many entries');
  const { time, date } = dosDateTime(options.modified ?? DEFAULT_MODIFIED);
  const seen = new Set<string>();
  const chunks: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;

  for (const entry of entries) {
    if (!entry.name || entry.name.startsWith('/') || entry.name.includes('\\')) {
      throw new RangeError(`Invalid ZIP entry name ${JSON.stringify(entry.name)}`);
    }
    if (seen.has(entry.name)) throw new RangeError(`Duplicate ZIP entry ${entry.name}`);
    seen.add(entry.name);

    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const deflated = entry.compress === false ? null : deflateRawSync(raw, { level: 9 });
    const useDeflate = deflated !== null && deflated.length < raw.length;
    const body = useDeflate ? deflated : raw;
    const method = useDeflate ? DEFLATED : STORED;
    const name = Buffer.from(entry.name, 'utf8');
    // Only flag UTF-8 when needed, keeping plain entries (notably "mimetype") byte-minimal.
    const flags = /^[\x20-\x7e]*$/.test(entry.name) ? 0 : UTF8_NAMES;
    const crc = crc32(raw);
    const version = method === DEFLATED ? 20 : 10;
    if (raw.length > 0xfffffffe || offset > 0xfffffffe) {
      throw new RangeError('ZIP64 is not supported: archive too large');
    }

    const local = Buffer.alloc(30);
    local.writeUInt32LE(LOCAL_HEADER, 0);
    local.writeUInt16LE(version, 4);
    local.writeUInt16LE(flags, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(time, 10);
    local.writeUInt16LE(date, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(body.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    chunks.push(local, name, Buffer.from(body.buffer, body.byteOffset, body.byteLength));

    const header = Buffer.alloc(46);
    header.writeUInt32LE(CENTRAL_HEADER, 0);
    header.writeUInt16LE(20, 4); // made by: MS-DOS, spec 2.0, so no Unix mode bits are implied
    header.writeUInt16LE(version, 6);
    header.writeUInt16LE(flags, 8);
    header.writeUInt16LE(method, 10);
    header.writeUInt16LE(time, 12);
    header.writeUInt16LE(date, 14);
    header.writeUInt32LE(crc, 16);
    header.writeUInt32LE(body.length, 20);
    header.writeUInt32LE(raw.length, 24);
    header.writeUInt16LE(name.length, 28);
    // extra length, comment length, disk number, internal and external attributes: all zero
    header.writeUInt32LE(offset, 42);
    central.push(header, name);

    offset += local.length + name.length + body.length;
  }

  const centralDirectory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(END_OF_CENTRAL_DIRECTORY, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(centralDirectory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, centralDirectory, end]);
}

/**
 * Reads an archive through its central directory and checks every CRC. Meant for tests and
 * seed verification of archives this module wrote, not for arbitrary ZIPs from the wild.
 */
export function readZip(archive: Uint8Array): ZipEntry[] {
  const buf = Buffer.from(archive.buffer, archive.byteOffset, archive.byteLength);
  const endAt = buf.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (endAt < 0 || endAt + 22 > buf.length) throw new Error('No end of central directory record');
  const count = buf.readUInt16LE(endAt + 10);
  let at = buf.readUInt32LE(endAt + 16);
  const entries: ZipEntry[] = [];

  for (let i = 0; i < count; i++) {
    if (buf.readUInt32LE(at) !== CENTRAL_HEADER) throw new Error(`Bad central header at ${at}`);
    const method = buf.readUInt16LE(at + 10);
    const crc = buf.readUInt32LE(at + 16);
    const compressedSize = buf.readUInt32LE(at + 20);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extraLength = buf.readUInt16LE(at + 30);
    const commentLength = buf.readUInt16LE(at + 32);
    const offset = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLength);

    if (buf.readUInt32LE(offset) !== LOCAL_HEADER) throw new Error(`Bad local header for ${name}`);
    const dataStart = offset + 30 + buf.readUInt16LE(offset + 26) + buf.readUInt16LE(offset + 28);
    const body = buf.subarray(dataStart, dataStart + compressedSize);
    let data: Buffer;
    if (method === STORED) data = Buffer.from(body);
    else if (method === DEFLATED) data = inflateRawSync(body);
    else throw new Error(`Unsupported compression method ${method} for ${name}`);
    if (data.length !== size || crc32(data) !== crc) throw new Error(`Corrupt entry ${name}`);

    entries.push({ name, method, data, offset });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}
