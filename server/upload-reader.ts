import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import busboy from 'busboy';
import { isCleanText } from './request-text.ts';

// Uploads (issue 15: a manager's ONIX feed and book files) are the one body the edge does not
// hold in memory: busboy reads the multipart stream and each file goes to a temporary file under
// the data directory as it arrives, within a byte limit for the whole upload. The application
// gets the form's small fields, and each file as a name, a temporary path and a size.

export type UploadedFile = { field: string; fileName: string; path: string; bytes: number };

export type UploadLimits = {
  maxBytes: number;
  maxFiles: number;
  idleMs: number;
  totalMs: number;
};

export type UploadOutcome =
  | { ok: true; fields: [string, string][]; files: UploadedFile[] }
  | { ok: false; reason: 'tooLarge' | 'timeout' | 'malformed' | 'aborted'; files: UploadedFile[] };

const FIELD_BYTES = 10_000;
const MAX_FIELDS = 50;

/** A file name as a person gave it, without folders or control characters. */
export function cleanFileName(name: string): string {
  const base = path.basename(name.replace(/\\/g, '/'));
  const clean = [...base]
    .filter((c) => c >= ' ' && c !== '\u007f')
    .join('')
    .trim();
  return clean.slice(0, 200) || 'upload';
}

export async function receiveUpload(
  req: IncomingMessage,
  dir: string,
  limits: UploadLimits,
): Promise<UploadOutcome> {
  await mkdir(dir, { recursive: true });
  const files: UploadedFile[] = [];
  const fields: [string, string][] = [];
  return new Promise<UploadOutcome>((resolve) => {
    let settled = false;
    let total = 0;
    let pendingWrites = 0;
    let parserDone = false;
    const settle = (outcome: UploadOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearTimeout(overall);
      if (!outcome.ok) {
        req.unpipe();
        req.resume();
      }
      resolve(outcome);
    };
    const fail = (reason: 'tooLarge' | 'timeout' | 'malformed' | 'aborted') =>
      settle({ ok: false, reason, files });
    let idle = setTimeout(() => fail('timeout'), limits.idleMs);
    const overall = setTimeout(() => fail('timeout'), limits.totalMs);
    const touch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => fail('timeout'), limits.idleMs);
    };
    const finishIfDone = () => {
      if (parserDone && pendingWrites === 0) settle({ ok: true, fields, files });
    };

    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: {
          fieldSize: FIELD_BYTES,
          fields: MAX_FIELDS,
          files: limits.maxFiles,
          fileSize: limits.maxBytes,
        },
      });
    } catch {
      fail('malformed');
      return;
    }
    parser.on('field', (name, value, info) => {
      if (info.valueTruncated || info.nameTruncated) return fail('tooLarge');
      if (!isCleanText(name) || !isCleanText(value)) return fail('malformed');
      fields.push([name, value]);
    });
    parser.on('file', (field, stream, info) => {
      if (settled) {
        stream.resume();
        return;
      }
      const fileName = cleanFileName(info.filename ?? '');
      // A file input left empty sends a part with no name and no bytes.
      if (!info.filename) {
        stream.resume();
        return;
      }
      const file: UploadedFile = {
        field,
        fileName,
        path: path.join(dir, `${randomBytes(12).toString('hex')}.part`),
        bytes: 0,
      };
      files.push(file);
      pendingWrites++;
      const out = createWriteStream(file.path);
      stream.on('data', (chunk: Buffer) => {
        touch();
        file.bytes += chunk.length;
        total += chunk.length;
        if (total > limits.maxBytes) {
          stream.unpipe(out);
          out.destroy();
          fail('tooLarge');
        }
      });
      stream.on('limit', () => fail('tooLarge'));
      out.on('error', () => fail('malformed'));
      out.on('close', () => {
        pendingWrites--;
        finishIfDone();
      });
      stream.pipe(out);
    });
    parser.on('filesLimit', () => fail('tooLarge'));
    parser.on('fieldsLimit', () => fail('tooLarge'));
    parser.on('error', () => fail('malformed'));
    parser.on('close', () => {
      parserDone = true;
      finishIfDone();
    });
    req.on('aborted', () => fail('aborted'));
    req.on('data', touch);
    req.pipe(parser);
  });
}

/** Deletes what an upload left in its temporary directory. */
export async function removeUploads(files: readonly UploadedFile[]): Promise<void> {
  await Promise.all(files.map((f) => rm(f.path, { force: true })));
}
