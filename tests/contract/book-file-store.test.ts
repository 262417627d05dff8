import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from '@20minutes/s3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type BookFileStore, diskFileStore } from '#domain/reading/file-store.ts';
import { createBookFileStore } from '#server/book-file-store.ts';
import { loadConfig } from '#server/config.ts';
import { s3FileStore } from '#server/s3-file-store.ts';

// Issue 15: book files go to a storage interface, the data directory by default and an
// S3-compatible bucket by configuration (decision 026). One contract, run against both: the
// disk store, and the S3 store made from BOOK_FILES_S3_* by the server's own configuration,
// talking to s3rver (an S3-compatible server in Node, @20minutes/s3rver) on 127.0.0.1. Nothing
// reaches the internet; s3rver checks each request's SigV4 signature, so the credentials found
// by the SDK's chain really are used.

const BUCKET = 'shelfmark-books';
const ACCESS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const MIB = 2 ** 20;

const work = mkdtempSync(path.join(tmpdir(), 'shelfmark-file-store-'));
const s3rver = new S3rver({
  address: '127.0.0.1',
  port: 0,
  silent: true,
  directory: path.join(work, 's3rver'),
  configureBuckets: [{ name: BUCKET }],
});
let endpoint = '';

// s3rver reads `Range: bytes=0-0` as the whole object (its `end || Infinity`); S3 answers the
// first byte, as RFC 9110's inclusive ranges say. Corrected here, so that the contract holds the
// S3 store to S3's answer rather than to the stand-in's slip.
const getObject = s3rver.store.getObject.bind(s3rver.store);
s3rver.store.getObject = async (bucket, key, options) => {
  const object = await getObject(bucket, key, options);
  if (object?.content && object.range && options?.end === 0) {
    object.content.destroy();
    const file = s3rver.store.getResourcePath(bucket, key, 'object');
    object.content = createReadStream(file, { start: options.start ?? 0, end: 0 });
    object.range.end = 0;
  }
  return object;
};
// The parts of multipart uploads that s3rver kept.
let partsKept = 0;
const putPart = s3rver.store.putPart.bind(s3rver.store);
s3rver.store.putPart = (...args) => {
  partsKept++;
  return putPart(...args);
};

beforeAll(async () => {
  const { port } = await s3rver.run();
  endpoint = `http://127.0.0.1:${port}`;
  // The SDK's standard chain finds these, as it would on a server.
  vi.stubEnv('AWS_ACCESS_KEY_ID', ACCESS.accessKeyId);
  vi.stubEnv('AWS_SECRET_ACCESS_KEY', ACCESS.secretAccessKey);
  vi.stubEnv('AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED', 'true');
});

afterAll(async () => {
  vi.unstubAllEnvs();
  s3rver.httpServer.closeAllConnections();
  await s3rver.close();
  rmSync(work, { recursive: true, force: true });
});

/** A local file with these bytes, as an upload or a checked book file would be. */
function localFile(bytes: Uint8Array): string {
  const file = path.join(work, 'local', `${randomBytes(8).toString('hex')}.bin`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, bytes);
  return file;
}

/** Reads a stream to its end; a stream that errors rejects with its own error. */
async function bytesOf(stream: ReadableStream<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    chunks.push(value);
  }
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

type Subject = { name: string; make(): BookFileStore | Promise<BookFileStore> };
const subjects: Subject[] = [
  { name: 'the data directory', make: () => diskFileStore(path.join(work, 'data')) },
  {
    name: 'an S3-compatible bucket (BOOK_FILES_S3_*)',
    make: () =>
      createBookFileStore(
        loadConfig({
          DATA_DIR: path.join(work, 'unused'),
          BOOK_FILES_S3_BUCKET: BUCKET,
          BOOK_FILES_S3_ENDPOINT: endpoint,
          BOOK_FILES_S3_FORCE_PATH_STYLE: 'true',
          BOOK_FILES_S3_PREFIX: 'shelfmark/',
        }),
      ),
  },
];

describe.each(subjects)('BookFileStore contract: $name', ({ make }) => {
  let store: BookFileStore;
  const text = Buffer.from('0123456789abcdefghij');
  beforeAll(async () => {
    store = await make();
    await store.adopt('files/contract/text.txt', localFile(text));
  });

  it('adopt takes the local file in: read gives its bytes back, and the local copy is gone', async () => {
    const local = localFile(Buffer.from('a book'));
    await store.adopt('files/contract/adopted.epub', local);
    expect(existsSync(local)).toBe(false);
    expect((await store.read('files/contract/adopted.epub')).toString()).toBe('a book');
  });

  it('size is the byte count, stream without a range the whole file', async () => {
    expect(await store.size('files/contract/text.txt')).toBe(text.length);
    expect(await bytesOf(store.stream('files/contract/text.txt'))).toEqual(text);
  });

  it.each([
    ['the first byte', 0, 0, '0'],
    ['a middle range', 5, 9, '56789'],
    ['the last byte', 19, 19, 'j'],
    ['the whole file as a range', 0, 19, '0123456789abcdefghij'],
    ['a range ending past the end: up to the end', 17, 40, 'hij'],
    ['a range starting past the end: nothing', 25, 30, ''],
  ])('stream with an inclusive range: %s', async (_name, start, end, expected) => {
    const got = await bytesOf(store.stream('files/contract/text.txt', { start, end }));
    expect(got.toString()).toBe(expected);
  });

  it('adopt of a file of several MiB streams it in, whole and byte for byte', async () => {
    // 12 MiB: on S3 a multipart upload of three parts (5 MiB at least each), not one read.
    const big = randomBytes(12 * MIB);
    await store.adopt('files/contract/big.epub', localFile(big));
    expect(await store.size('files/contract/big.epub')).toBe(big.length);
    expect(sha256(await bytesOf(store.stream('files/contract/big.epub')))).toBe(sha256(big));
    expect(sha256(await store.read('files/contract/big.epub'))).toBe(sha256(big));
    // Across the boundary of the first part, and the file's very end.
    const boundary = { start: 5 * MIB - 3, end: 5 * MIB + 2 };
    expect(await bytesOf(store.stream('files/contract/big.epub', boundary))).toEqual(
      big.subarray(boundary.start, boundary.end + 1),
    );
    const last = { start: big.length - 1, end: big.length - 1 };
    expect(await bytesOf(store.stream('files/contract/big.epub', last))).toEqual(
      big.subarray(big.length - 1),
    );
  });

  it('adopt under a path already kept replaces the file', async () => {
    await store.adopt('files/contract/replaced.pdf', localFile(Buffer.from('first')));
    await store.adopt('files/contract/replaced.pdf', localFile(Buffer.from('second, longer')));
    expect((await store.read('files/contract/replaced.pdf')).toString()).toBe('second, longer');
    expect(await store.size('files/contract/replaced.pdf')).toBe(14);
  });

  it('remove lets the file go; removing a missing file is no error', async () => {
    await store.adopt('files/contract/gone.pdf', localFile(Buffer.from('soon gone')));
    await store.remove('files/contract/gone.pdf');
    await expect(store.size('files/contract/gone.pdf')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.remove('files/contract/gone.pdf')).resolves.toBeUndefined();
  });

  it('a missing file is ENOENT from read, size and the stream, as on disk', async () => {
    const missing = 'files/contract/never-kept.epub';
    await expect(store.read(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.size(missing)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(bytesOf(store.stream(missing))).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(bytesOf(store.stream(missing, { start: 0, end: 9 }))).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it('adopt of a local file that is not there is ENOENT, and keeps nothing', async () => {
    await expect(
      store.adopt('files/contract/from-nowhere.epub', path.join(work, 'no-such-upload.epub')),
    ).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(store.size('files/contract/from-nowhere.epub')).rejects.toMatchObject({
      code: 'ENOENT',
    });
  });

  it.each([
    '../outside.txt',
    'files/../../outside.txt',
    '/etc/passwd',
  ])('a path outside the store (%s) is refused by every method, before anything is done', async (bad) => {
    const refused = /storage path outside/;
    const local = localFile(Buffer.from('must stay here'));
    await expect(async () => store.read(bad)).rejects.toThrow(refused);
    await expect(async () => store.size(bad)).rejects.toThrow(refused);
    expect(() => store.stream(bad)).toThrow(refused);
    expect(() => store.stream(bad, { start: 0, end: 1 })).toThrow(refused);
    await expect(async () => store.adopt(bad, local)).rejects.toThrow(refused);
    await expect(async () => store.remove(bad)).rejects.toThrow(refused);
    expect(existsSync(local)).toBe(true);
    expect(existsSync(path.join(work, 'outside.txt'))).toBe(false);
  });
});

describe('the S3 store only', () => {
  const direct = (prefix: string) =>
    s3FileStore(
      { bucket: BUCKET, region: 'us-east-1', endpoint, forcePathStyle: true, prefix },
      { credentials: ACCESS },
    );

  it('keys are the storage paths under BOOK_FILES_S3_PREFIX', async () => {
    await direct('tenant-a/books/').adopt('files/x.pdf', localFile(Buffer.from('prefixed')));
    const whole = direct('');
    expect((await whole.read('tenant-a/books/files/x.pdf')).toString()).toBe('prefixed');
    await expect(whole.size('files/x.pdf')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('a file past 5 MiB goes up in parts, never whole in memory; a small one in one request', async () => {
    const store = direct('parts/');
    const before = partsKept;
    await store.adopt('files/small.pdf', localFile(randomBytes(MIB)));
    expect(partsKept).toBe(before);
    const big = randomBytes(11 * MIB);
    await store.adopt('files/eleven.epub', localFile(big));
    expect(partsKept - before).toBe(3);
    expect(sha256(await store.read('files/eleven.epub'))).toBe(sha256(big));
  });

  it.each([
    'files/../x.pdf',
    './files/x.pdf',
    'files//x.pdf',
    'files\\x.pdf',
    '',
  ])('a key a URL could rewrite or that is no path (%j) is refused', async (bad) => {
    const store = direct('p/');
    expect(() => store.stream(bad)).toThrow(/storage path/);
    await expect(store.size(bad)).rejects.toThrow(/storage path/);
  });

  it('a refused request (wrong credentials) is an error of its own, never a missing file', async () => {
    const stranger = s3FileStore(
      { bucket: BUCKET, region: 'us-east-1', endpoint, forcePathStyle: true, prefix: '' },
      { credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'not-the-secret' } },
    );
    const error = await stranger.read('files/anything.txt').catch((e) => e);
    expect(error).toBeInstanceOf(Error);
    expect(error.code).not.toBe('ENOENT');
  });

  it('a stream read in part and then cancelled lets go of its answer', async () => {
    const store = direct('cancelled/');
    await store.adopt('files/long.epub', localFile(randomBytes(6 * MIB)));
    for (let n = 0; n < 60; n++) {
      const reader = store.stream('files/long.epub').getReader();
      expect((await reader.read()).done).toBe(false);
      await reader.cancel();
    }
    // More cancelled answers than the client has connections (50): all were let go.
    expect(await store.size('files/long.epub')).toBe(6 * MIB);
  });
});
