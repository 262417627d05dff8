import { hash, verify } from '@node-rs/argon2';

// argon2id with the OWASP minimums (19 MiB, 2 passes, 1 lane): about 20 ms here, slow enough
// for guessing, fast enough for a login.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

/**
 * Hashes computed at once by this process (issue 40, decision 044). Each takes a core and one
 * of libuv's four threads for about 20 ms; when 400 students log in in the same second, more
 * at once would take the cores the event loop needs to serve everyone else, and the threads
 * that read book files. The rest wait their turn here, in order; their other work (reading the
 * account, starting the session) goes on meanwhile.
 */
export const HASHES_AT_ONCE = 2;

let atOnce = HASHES_AT_ONCE;
let hashing = 0;
const waiting: (() => void)[] = [];

/**
 * The server sets it once at start, from the machine's cores and its workers (doorFor in
 * server/admission.ts); hashes already under way or waiting keep their places.
 */
export function setHashesAtOnce(n: number): void {
  if (!Number.isInteger(n) || n < 1) throw new RangeError('a whole number ≥ 1');
  atOnce = n;
}

async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (hashing >= atOnce) await new Promise<void>((resolve) => waiting.push(resolve));
  else hashing += 1;
  try {
    return await work();
  } finally {
    // The place passes to the next in line; the count stays.
    const next = waiting.shift();
    if (next) next();
    else hashing -= 1;
  }
}

/** What computes a hash, and checks one: argon2 on libuv's threads unless the server says. */
export type Hasher = {
  hash(password: string, options: typeof OPTIONS): Promise<string>;
  verify(stored: string, password: string): Promise<boolean>;
};

let hasher: Hasher = { hash, verify: (stored, password) => verify(stored, password) };

/**
 * The server sets it at start (server/hash-threads.ts: threads of their own, at a lower CPU
 * priority than the event loop, decision 044); the same argon2 and options either way.
 */
export function setHasher(next: Hasher): void {
  hasher = next;
}

/** Hashes under way and waiting their turn (the tests ask). */
export function hashTurns(): { running: number; waiting: number } {
  return { running: hashing, waiting: waiting.length };
}

export function hashPassword(password: string): Promise<string> {
  return inTurn(() => hasher.hash(password, OPTIONS));
}

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    // Spend the same time on unknown accounts so timing does not reveal which e-mails exist.
    await inTurn(() => hasher.hash(password, OPTIONS));
    return false;
  }
  try {
    return await inTurn(() => hasher.verify(stored, password));
  } catch {
    return false;
  }
}
