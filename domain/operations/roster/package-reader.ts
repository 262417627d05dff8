import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import yauzl from 'yauzl';
import type { MessageWording } from '#domain/shared/wording.ts';
import { type Manifest, readManifest } from './manifest.ts';
import { ROSTER_COLUMNS, ROSTER_FILES, type RosterFile } from './oneroster-tables.ts';
import { type RowOf, readRosterRow } from './roster-rows.ts';

// A OneRoster 1.2 CSV package read as streams (decision 035): a zip, or a folder of its CSV
// files. Refused as a whole, with the reason, when it cannot be a package (not a zip, too big
// unpacked, no manifest, a wrong version, a listed file absent, a required column missing, text
// that is not UTF-8); otherwise every row is read, and a bad row is refused alone.

/** A zip holds at most this many entries; a real package has eight to twenty. */
export const MAX_ZIP_ENTRIES = 64;
/** Unpacked, a package holds at most this many bytes (a zip bomb is refused before it unpacks). */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;

export type LineRefusal = {
  file: string;
  line: number;
  sourcedId: string | null;
  kind: 'refused' | 'ignored' | 'warning';
  reason: string;
  values?: Record<string, string | number>;
};

export type RosterRows = { [F in RosterFile]: RowOf[F][] };

export type RosterPackage = {
  manifest: Manifest;
  rows: RosterRows;
  /** Rows refused alone while reading (bad values, duplicate sourcedIds). */
  refusals: LineRefusal[];
  /** Data rows read, refused ones included. */
  rowCount: number;
};

export type PackageReading =
  | { ok: true; package: RosterPackage }
  | { ok: false; reason: MessageWording };

/** What a package is read from: its files by name, each opened as a stream of bytes. */
type PackageSource = {
  names: Set<string>;
  open(name: string): Promise<Readable>;
  close(): void;
};

class PackageRefused extends Error {
  constructor(readonly reason: MessageWording) {
    super(reason.message);
  }
}

const refused = (message: string, values?: Record<string, string | number>) =>
  new PackageRefused(values ? { message, values } : { message });

/** Reads the package at `location`: a .zip file, or a folder holding manifest.csv. */
export async function readRosterPackage(location: string): Promise<PackageReading> {
  let source: PackageSource | null = null;
  try {
    source = (await stat(location)).isDirectory()
      ? await folderSource(location)
      : await zipSource(location);
    return { ok: true, package: await readFrom(source) };
  } catch (error) {
    if (error instanceof PackageRefused) return { ok: false, reason: error.reason };
    throw error;
  } finally {
    source?.close();
  }
}

async function readFrom(source: PackageSource): Promise<RosterPackage> {
  if (!source.names.has('manifest.csv')) throw refused('ops.roster.refused.noManifest');
  const manifestRows: string[][] = [];
  for await (const { values } of csvRecords(source, 'manifest.csv')) manifestRows.push(values);
  const reading = readManifest(manifestRows);
  if (!reading.ok) throw new PackageRefused(reading.reason);
  const { manifest } = reading;
  for (const file of ROSTER_FILES) {
    if (manifest.modes[file] !== 'absent' && !source.names.has(`${file}.csv`)) {
      throw refused('ops.roster.refused.missingFile', { file: `${file}.csv` });
    }
  }
  const rows = Object.fromEntries(ROSTER_FILES.map((file) => [file, []])) as unknown as RosterRows;
  const refusals: LineRefusal[] = [];
  let rowCount = 0;
  for (const file of ROSTER_FILES) {
    const mode = manifest.modes[file];
    if (mode === 'absent') continue;
    const name = `${file}.csv`;
    let header: string[] | null = null;
    const seen = new Set<string>();
    for await (const { values, line } of csvRecords(source, name)) {
      if (!header) {
        header = checkHeader(file, values);
        continue;
      }
      rowCount++;
      if (values.length !== header.length) {
        refusals.push({
          file: name,
          line,
          sourcedId: null,
          kind: 'refused',
          reason: 'ops.roster.line.fieldCount',
          values: { found: values.length, expected: header.length },
        });
        continue;
      }
      const fields: Record<string, string> = {};
      header.forEach((column, n) => {
        fields[column] = values[n]!;
      });
      const read = readRosterRow(file, mode, fields, line);
      if (!read.ok) {
        refusals.push({
          file: name,
          line,
          sourcedId: fields.sourcedId ? fields.sourcedId.slice(0, 255) : null,
          kind: 'refused',
          reason: read.reason,
          ...(read.values ? { values: read.values } : {}),
        });
        continue;
      }
      if (seen.has(read.row.sourcedId)) {
        refusals.push({
          file: name,
          line,
          sourcedId: read.row.sourcedId,
          kind: 'refused',
          reason: 'ops.roster.line.duplicate',
        });
        continue;
      }
      seen.add(read.row.sourcedId);
      (rows[file] as RowOf[typeof file][]).push(read.row as RowOf[typeof file]);
    }
    if (!header) throw refused('ops.roster.refused.noHeader', { file: name });
  }
  return { manifest, rows, refusals, rowCount };
}

/** The header of a file: its required columns all there, no column named twice. */
function checkHeader(file: RosterFile, header: string[]): string[] {
  const name = `${file}.csv`;
  const names = new Set<string>();
  for (const column of header) {
    if (names.has(column)) {
      throw refused('ops.roster.refused.duplicateColumn', {
        file: name,
        column: column.slice(0, 60),
      });
    }
    names.add(column);
  }
  for (const column of ROSTER_COLUMNS[file].required) {
    if (!names.has(column))
      throw refused('ops.roster.refused.missingColumn', { file: name, column });
  }
  return header;
}

/**
 * The records of one CSV file as they stream in, with the line each ends on. RFC 4180 as the
 * binding asks: quoted fields (commas, doubled quotes inside), CRLF or LF, a UTF-8 BOM skipped.
 * Text that is not UTF-8, or a quote left open, refuses the package.
 */
async function* csvRecords(
  source: PackageSource,
  name: string,
): AsyncGenerator<{ values: string[]; line: number }> {
  const bytes = await source.open(name);
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true, info: true });
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const feed = (async () => {
    try {
      for await (const chunk of bytes) {
        let text: string;
        try {
          text = decoder.decode(chunk as Uint8Array, { stream: true });
        } catch {
          throw refused('ops.roster.refused.encoding', { file: name });
        }
        if (!parser.write(text)) await new Promise((resolve) => parser.once('drain', resolve));
      }
      try {
        parser.write(decoder.decode());
      } catch {
        throw refused('ops.roster.refused.encoding', { file: name });
      }
      parser.end();
    } catch (error) {
      bytes.destroy();
      parser.destroy(error as Error);
    }
  })();
  try {
    for await (const record of parser as AsyncIterable<{
      record: string[];
      info: { lines: number };
    }>) {
      yield { values: record.record, line: record.info.lines };
    }
  } catch (error) {
    if (error instanceof PackageRefused) throw error;
    const line = (error as { lines?: number }).lines;
    throw refused('ops.roster.refused.csv', { file: name, line: line ?? 0 });
  } finally {
    bytes.destroy();
    await feed;
  }
}

async function folderSource(folder: string): Promise<PackageSource> {
  const names = new Set((await readdir(folder)).filter((name) => name.endsWith('.csv')));
  let total = 0;
  for (const name of names) total += (await stat(path.join(folder, name))).size;
  if (total > MAX_UNPACKED_BYTES) throw refused('ops.roster.refused.tooBig');
  return {
    names,
    open: async (name) => createReadStream(path.join(folder, name)),
    close: () => {},
  };
}

/** A zip's CSV files by base name; entries, sizes and unpacked total are capped. */
async function zipSource(file: string): Promise<PackageSource> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, {
      lazyEntries: true,
      autoClose: false,
      strictFileNames: false,
    });
  } catch {
    throw refused('ops.roster.refused.notZip');
  }
  const entries = new Map<string, yauzl.Entry>();
  try {
    if (zip.entryCount > MAX_ZIP_ENTRIES)
      throw refused('ops.roster.refused.tooManyEntries', { max: MAX_ZIP_ENTRIES });
    let total = 0;
    await new Promise<void>((resolve, reject) => {
      zip.on('entry', (entry: yauzl.Entry) => {
        const base = entry.fileName.split('/').pop() ?? '';
        const skipped =
          entry.fileName.endsWith('/') ||
          entry.fileName.startsWith('__MACOSX/') ||
          !base.endsWith('.csv');
        if (!skipped) {
          total += entry.uncompressedSize;
          if (total > MAX_UNPACKED_BYTES) return reject(refused('ops.roster.refused.tooBig'));
          if (entries.has(base))
            return reject(refused('ops.roster.refused.duplicateFile', { file: base.slice(0, 60) }));
          entries.set(base, entry);
        }
        zip.readEntry();
      });
      zip.once('end', () => resolve());
      zip.once('error', () => reject(refused('ops.roster.refused.notZip')));
      zip.readEntry();
    });
  } catch (error) {
    zip.close();
    throw error;
  }
  return {
    names: new Set(entries.keys()),
    async open(name) {
      const entry = entries.get(name)!;
      if (!entry.canDecodeFileData() || entry.isEncrypted())
        throw refused('ops.roster.refused.notZip');
      try {
        return await zip.openReadStreamPromise(entry);
      } catch {
        throw refused('ops.roster.refused.notZip');
      }
    },
    close: () => zip.close(),
  };
}
