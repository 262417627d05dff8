import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { hash, verify } from '@node-rs/argon2';
import type { Hasher } from '#domain/accounts/password.ts';

// Decision 045, on 044's lines: a log in waits its turn at the door, and its password hash
// should not take the cores the event loop needs for the pages and payments of everyone already
// in. A hash costs a core for about 20 ms; on libuv's threads it ran at the same priority as the
// event loop, so in a rush the hashes of those arriving slowed the checkouts of those paying.
// Here each hash runs on a thread of its own that lowers its own priority (Linux `nice` applies
// to one thread when given its id): when the cores are busy, the event loop goes first and
// hashes take what is left; when they are not, a hash takes as long as before. The same argon2,
// the same options.

/** How much lower than the event loop (Linux nice, 0 to 19): a tenth of a core's share. */
export const HASH_NICE = 10;

// CommonJS run by the thread itself (no file to ship beside the build). It loads argon2 from the
// path this module resolved, wherever the process was started from.
const ARGON2_PATH = createRequire(import.meta.url).resolve('@node-rs/argon2');
const THREAD_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const argon2 = require(workerData.argon2Path);
try {
  // '/proc/thread-self' names this thread: '<pid>/task/<tid>'.
  const tid = Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop());
  require('node:os').setPriority(tid, workerData.nice);
} catch {
  // Not Linux, or not allowed: the thread keeps the process's priority.
}
parentPort.on('message', ({ id, op, password, stored, options }) => {
  try {
    const value =
      op === 'hash' ? argon2.hashSync(password, options) : argon2.verifySync(stored, password);
    parentPort.postMessage({ id, value });
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
`;

type Reply = { id: number; value?: string | boolean; error?: string };

/** The thread is gone (it failed to start, or ended): the hash is done here instead. */
class ThreadGone extends Error {}
type Pending = { resolve: (value: string | boolean) => void; reject: (error: Error) => void };

class HashThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #next = 0;
  alive = true;

  constructor(nice: number) {
    this.#worker = new Worker(THREAD_SOURCE, {
      eval: true,
      workerData: { nice, argon2Path: ARGON2_PATH },
    });
    // A thread waiting for work does not keep the process alive.
    this.#worker.unref();
    this.#worker.on('message', (reply: Reply) => {
      const pending = this.#pending.get(reply.id);
      if (!pending) return;
      this.#pending.delete(reply.id);
      if (reply.error !== undefined) pending.reject(new Error(reply.error));
      else pending.resolve(reply.value!);
    });
    this.#worker.on('error', (error) => {
      this.alive = false;
      this.#failAll(new ThreadGone(String(error)));
    });
    this.#worker.on('exit', () => {
      this.alive = false;
      this.#failAll(new ThreadGone('the hash thread ended'));
    });
  }

  get busy(): number {
    return this.#pending.size;
  }

  run(message: Record<string, unknown>): Promise<string | boolean> {
    if (!this.alive) return Promise.reject(new ThreadGone('the hash thread ended'));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve, reject });
      this.#worker.postMessage({ ...message, id });
    });
  }

  end(): Promise<number> {
    return this.#worker.terminate();
  }

  #failAll(error: Error) {
    for (const pending of this.#pending.values()) pending.reject(error);
    this.#pending.clear();
  }
}

// One set of threads per process, however many apps a test makes.
let threads: HashThread[] = [];

/**
 * A Hasher on `count` threads of their own at HASH_NICE (password.ts's line already lets at
 * most that many hashes run at once). A thread that ended is replaced on the next hash; a hash
 * whose thread ended under it (or never started) is done on libuv's threads instead, so a log
 * in never fails for it.
 */
export function lowPriorityHasher(count: number, nice = HASH_NICE): Hasher {
  const pick = () => {
    threads = threads.filter((t) => t.alive);
    while (threads.length < count) threads.push(new HashThread(nice));
    return threads.reduce((best, t) => (t.busy < best.busy ? t : best), threads[0]!);
  };
  const onThread = async <T>(
    message: Record<string, unknown>,
    here: () => Promise<T>,
    read: (value: string | boolean) => T,
  ): Promise<T> => {
    try {
      return read(await pick().run(message));
    } catch (error) {
      if (error instanceof ThreadGone) return here();
      throw error;
    }
  };
  return {
    hash: (password, options) =>
      onThread({ op: 'hash', password, options }, () => hash(password, options), String),
    verify: (stored, password) =>
      onThread(
        { op: 'verify', stored, password },
        () => verify(stored, password),
        (value) => value === true,
      ),
  };
}

/** Ends every hash thread (a test's doing): hashes under way finish on libuv's threads. */
export async function endHashThreads(): Promise<void> {
  const ending = threads;
  threads = [];
  await Promise.all(ending.map((t) => t.end()));
}
