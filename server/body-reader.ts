import type { IncomingMessage } from 'node:http';

export type BodyLimits = {
  /** Bytes the body may have, counted as they arrive, whatever the framing. */
  maxBytes: number;
  /** The longest pause between two pieces of the body. */
  idleMs: number;
  /** The longest the whole body may take. */
  totalMs: number;
};

export type BodyOutcome =
  | { ok: true; bytes: Uint8Array<ArrayBuffer> }
  | { ok: false; reason: 'tooLarge' | 'timeout' | 'aborted' };

/**
 * Reads a request body into memory, at most `maxBytes` of it (issue 18). `Content-Length` is not
 * trusted: a chunked body has none, so bytes are counted as they arrive and reading stops at the
 * limit. What arrives after that is dropped unread (the stream keeps flowing with no listener)
 * until the caller closes the connection, so memory stays at the limit.
 */
export function readBody(req: IncomingMessage, limits: BodyLimits): Promise<BodyOutcome> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (outcome: BodyOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      clearTimeout(total);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('close', onClose);
      chunks.length = 0;
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxBytes) {
        settle({ ok: false, reason: 'tooLarge' });
        return;
      }
      chunks.push(chunk);
      idle.refresh();
    };
    const onEnd = () => {
      const bytes = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        bytes.set(chunk, offset);
        offset += chunk.length;
      }
      settle({ ok: true, bytes });
    };
    const onClose = () => settle({ ok: false, reason: 'aborted' });
    const idle = setTimeout(() => settle({ ok: false, reason: 'timeout' }), limits.idleMs);
    const total = setTimeout(() => settle({ ok: false, reason: 'timeout' }), limits.totalMs);
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('close', onClose);
    // A request stream may fail (a reset socket); the close that follows settles the read.
    req.on('error', () => {});
  });
}
