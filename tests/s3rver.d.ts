// @20minutes/s3rver (the maintained s3rver) ships no types: what the book-file-store contract
// test uses of it (tests/contract/book-file-store.test.ts, decision 026).
declare module '@20minutes/s3rver' {
  import type { Server } from 'node:http';
  import type { AddressInfo } from 'node:net';
  import type { Readable } from 'node:stream';

  export type StoredObject = {
    content: Readable | null;
    range?: { start: number; end: number };
  };

  export default class S3rver {
    constructor(options: {
      address?: string;
      port?: number;
      silent?: boolean;
      directory: string;
      configureBuckets?: { name: string }[];
    });
    run(): Promise<AddressInfo>;
    close(): Promise<void>;
    httpServer: Server;
    store: {
      getObject(
        bucket: string,
        key: string,
        options?: { start?: number; end?: number },
      ): Promise<StoredObject | null>;
      getResourcePath(bucket: string, key: string, resource: 'object'): string;
      putPart(
        bucket: string,
        uploadId: string,
        partNumber: number,
        content: unknown,
      ): Promise<unknown>;
    };
  }
}
