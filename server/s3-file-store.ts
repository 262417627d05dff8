// Book files in an S3-compatible bucket (issue 15, decision 026): the same `BookFileStore` as
// the data directory, through AWS's maintained SDK. A storage path is an object key under an
// optional prefix; it never leaves the server. Credentials come from the SDK's own chain
// (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, a profile, an instance role), never from us.
import { createReadStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { BookFileStore, ByteRange } from '#domain/reading/file-store.ts';

export type S3FileStoreSettings = {
  bucket: string;
  region: string;
  /** An S3-compatible service's address; AWS's own when undefined. */
  endpoint?: string;
  /** Put before every storage path: '' or segments ending in '/' ('shelfmark/'). */
  prefix: string;
  /** `<endpoint>/<bucket>/<key>` instead of `<bucket>.<endpoint>/<key>`. */
  forcePathStyle: boolean;
};

/** Only tests give credentials here; a deployment lets the SDK find them. */
export type S3Credentials = { accessKeyId: string; secretAccessKey: string };

/** A connection is given up after this; an answer may then pause this long between bytes. */
const CONNECT_TIMEOUT_MS = 10_000;
const IDLE_TIMEOUT_MS = 120_000;
/** A multipart upload keeps at most this many parts of a file in memory (5 MiB each at least). */
const PARTS_IN_FLIGHT = 2;

/**
 * Why a storage path cannot be an object key, or null. A key is taken literally by the bucket,
 * but `..` and `.` segments would be resolved away in the request's URL on the way: refused,
 * like paths outside DATA_DIR on disk. So are empty segments, a leading '/', and backslashes.
 */
export function storageKeyProblem(storagePath: string): string | null {
  if (storagePath === '') return 'an empty storage path';
  if (/[\\\0]/.test(storagePath)) return 'a backslash or NUL in the storage path';
  const segments = storagePath.split('/');
  if (segments.some((segment) => segment === '' || segment === '.' || segment === '..')) {
    return 'storage path outside the bucket prefix (empty, . or .. segment)';
  }
  return null;
}

/** The disk store's error for a file that is not there, so callers treat both stores alike. */
function noSuchFile(storagePath: string, cause: unknown): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOENT: no such book file '${storagePath}'`), {
    code: 'ENOENT',
    cause,
  });
}

function isMissing(error: unknown): boolean {
  return (
    error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound')
  );
}

/** A range that starts past the end: the disk store gives no bytes, and so does this one. */
function isPastTheEnd(error: unknown): boolean {
  return error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416;
}

export function s3FileStore(
  settings: S3FileStoreSettings,
  options: { credentials?: S3Credentials } = {},
): BookFileStore {
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: options.credentials,
    requestHandler: { connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: IDLE_TIMEOUT_MS },
  });
  const Bucket = settings.bucket;
  const keyOf = (storagePath: string): string => {
    const problem = storageKeyProblem(storagePath);
    if (problem) throw new Error(problem);
    return settings.prefix + storagePath;
  };
  const get = async (storagePath: string, Key: string, range?: ByteRange, signal?: AbortSignal) => {
    try {
      const answer = await client.send(
        new GetObjectCommand({
          Bucket,
          Key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
        }),
        { abortSignal: signal },
      );
      return answer.Body as
        | (Readable & { transformToByteArray(): Promise<Uint8Array> })
        | undefined;
    } catch (error) {
      if (isMissing(error)) throw noSuchFile(storagePath, error);
      if (range && isPastTheEnd(error)) return undefined;
      throw error;
    }
  };

  return {
    async read(storagePath) {
      const body = await get(storagePath, keyOf(storagePath));
      const bytes = body ? await body.transformToByteArray() : new Uint8Array();
      return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    },

    async size(storagePath) {
      try {
        const head = await client.send(new HeadObjectCommand({ Bucket, Key: keyOf(storagePath) }));
        return head.ContentLength ?? 0;
      } catch (error) {
        throw isMissing(error) ? noSuchFile(storagePath, error) : error;
      }
    },

    stream(storagePath, range) {
      const Key = keyOf(storagePath);
      const abort = new AbortController();
      let body: Readable | undefined;
      let chunks: AsyncIterator<Uint8Array> | undefined;
      // Nothing is asked of the bucket until the first read (highWaterMark 0): a stream that
      // is made and never read holds no connection.
      return new ReadableStream<Uint8Array>(
        {
          async pull(controller) {
            try {
              if (!chunks) {
                body = await get(storagePath, Key, range, abort.signal);
                if (!body) return controller.close();
                chunks = body[Symbol.asyncIterator]();
              }
              const next = await chunks.next();
              if (next.done) controller.close();
              else controller.enqueue(next.value);
            } catch (error) {
              controller.error(error);
            }
          },
          cancel() {
            // The reader went away (a closed download): let go of the bucket's answer.
            abort.abort();
            body?.destroy();
          },
        },
        { highWaterMark: 0 },
      );
    },

    async adopt(storagePath, localPath) {
      const Key = keyOf(storagePath);
      await stat(localPath);
      // Streamed from disk: a file of a few MiB is one PutObject, a larger one a multipart
      // upload of parts sized to fit S3's 10,000 (an aborted one is cleaned up by the SDK).
      const upload = new Upload({
        client,
        params: { Bucket, Key, Body: createReadStream(localPath) },
        queueSize: PARTS_IN_FLIGHT,
      });
      await upload.done();
      // Adopted: the local file is the store's now, as when the disk store moves it.
      await rm(localPath, { force: true });
    },

    async remove(storagePath) {
      // S3 answers a delete of a missing key as done, like `rm --force`.
      await client.send(new DeleteObjectCommand({ Bucket, Key: keyOf(storagePath) }));
    },
  };
}
