import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRandom } from './random.ts';
import { crc32, createZip, readZip } from './zip.ts';

const hasUnzip = spawnSync('unzip', ['-v']).status === 0;

function unzipTest(archive: Buffer): { status: number | null; output: string } {
  const dir = mkdtempSync(join(tmpdir(), 'shelfmark-zip-'));
  try {
    const file = join(dir, 'archive.zip');
    writeFileSync(file, archive);
    const result = spawnSync('unzip', ['-t', file], { encoding: 'utf8' });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const text = 'The quick brown fox jumps over the lazy dog. '.repeat(50);

describe('crc32', () => {
  it('matches the standard CRC-32 check value', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('is zero for empty input and matches a known sentence', () => {
    expect(crc32(new Uint8Array())).toBe(0);
    expect(crc32(Buffer.from('The quick brown fox jumps over the lazy dog'))).toBe(0x414fa339);
  });
});

describe('createZip', () => {
  it('round-trips stored and deflated entries through its own reader', () => {
    const binary = new Uint8Array([0, 1, 2, 255, 254, 0]);
    const archive = createZip([
      { name: 'plain.txt', data: 'hello', compress: false },
      { name: 'dir/long.txt', data: text },
      { name: 'bytes.bin', data: binary },
    ]);
    const entries = readZip(archive);
    expect(entries.map((e) => e.name)).toEqual(['plain.txt', 'dir/long.txt', 'bytes.bin']);
    expect(entries[0]?.data.toString()).toBe('hello');
    expect(entries[1]?.data.toString()).toBe(text);
    expect([...(entries[2]?.data ?? [])]).toEqual([...binary]);
  });

  it('deflates compressible data and stores data that deflate would only grow', () => {
    const noise = new Uint8Array(512);
    const random = createRandom(2);
    for (let i = 0; i < noise.length; i++) noise[i] = random.int(0, 255);
    const [long, tiny, incompressible] = readZip(
      createZip([
        { name: 'long.txt', data: text },
        { name: 'tiny.txt', data: 'a' },
        { name: 'noise.bin', data: noise },
      ]),
    );
    expect(long?.method).toBe(8);
    expect(tiny?.method).toBe(0);
    expect(incompressible?.method).toBe(0);
  });

  it('writes the first entry at offset zero with its name right after the 30-byte header', () => {
    const archive = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
    ]);
    expect(archive.readUInt32LE(0)).toBe(0x04034b50);
    expect(archive.readUInt16LE(8)).toBe(0);
    expect(archive.readUInt16LE(28)).toBe(0);
    expect(archive.toString('ascii', 30, 38)).toBe('mimetype');
    expect(archive.toString('ascii', 38, 58)).toBe('application/epub+zip');
  });

  it('is byte-for-byte deterministic, with a settable timestamp', () => {
    const entries = [{ name: 'a.txt', data: text }];
    expect(createZip(entries).equals(createZip(entries))).toBe(true);
    const later = createZip(entries, { modified: new Date(Date.UTC(2030, 5, 15, 12, 30, 0)) });
    expect(later.equals(createZip(entries))).toBe(false);
  });

  it('flags non-ASCII names as UTF-8 and reads them back intact', () => {
    const archive = createZip([{ name: 'übung/café.txt', data: 'ok' }]);
    expect(archive.readUInt16LE(6) & 0x0800).toBe(0x0800);
    expect(readZip(archive)[0]?.name).toBe('übung/café.txt');
  });

  it('refuses duplicate, absolute and backslash names', () => {
    expect(() =>
      createZip([
        { name: 'a', data: '' },
        { name: 'a', data: '' },
      ]),
    ).toThrow(RangeError);
    expect(() => createZip([{ name: '/etc/passwd', data: '' }])).toThrow(RangeError);
    expect(() => createZip([{ name: 'a\\b', data: '' }])).toThrow(RangeError);
  });

  it('produces an empty but valid archive from no entries', () => {
    const archive = createZip([]);
    expect(archive.length).toBe(22);
    expect(readZip(archive)).toEqual([]);
  });

  it('detects corruption when reading', () => {
    const archive = createZip([{ name: 'a.txt', data: 'hello world', compress: false }]);
    const corrupt = Buffer.from(archive);
    corrupt[30 + 'a.txt'.length] = 'H'.charCodeAt(0);
    expect(() => readZip(corrupt)).toThrow(/Corrupt entry a.txt/);
  });

  it.skipIf(!hasUnzip)('passes unzip -t with no errors', () => {
    const archive = createZip([
      { name: 'mimetype', data: 'application/epub+zip', compress: false },
      { name: 'a/b/c.txt', data: text },
      { name: 'naïve.txt', data: 'unicode name' },
    ]);
    const { status, output } = unzipTest(archive);
    expect(output).toContain('No errors detected');
    expect(status).toBe(0);
  });
});
