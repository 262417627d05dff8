import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { endHashThreads, HASH_NICE, lowPriorityHasher } from './hash-threads.ts';

// Decision 044: password hashes on threads of their own, below the event loop's priority.

/** The nice value of each of this process's threads (Linux: field 19 of /proc/…/stat). */
function threadNices(): number[] {
  return readdirSync('/proc/self/task').flatMap((tid) => {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return [Number(fields[16])];
    } catch {
      return [];
    }
  });
}

describe('password hashes on low-priority threads', () => {
  const options = { memoryCost: 19_456, timeCost: 2, parallelism: 1, algorithm: 2 } as const;

  it('hashes and checks as argon2id does, with the same options', async () => {
    const hasher = lowPriorityHasher(1);
    const stored = await hasher.hash('correct horse battery staple', options);
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await hasher.verify(stored, 'correct horse battery staple')).toBe(true);
    expect(await hasher.verify(stored, 'correct horse battery stapler')).toBe(false);
  });

  it.runIf(process.platform === 'linux')(
    'the thread that hashed runs at a lower priority than the rest of the process',
    async () => {
      const hasher = lowPriorityHasher(1);
      await hasher.hash('a password', options);
      const nices = threadNices();
      expect(nices).toContain(HASH_NICE);
      // The event loop's own thread (the process's id) keeps its priority.
      const main = readFileSync('/proc/self/stat', 'utf8');
      const own = Number(main.slice(main.lastIndexOf(')') + 2).split(' ')[16]);
      expect(own).toBeLessThan(HASH_NICE);
    },
  );

  it('a hash whose thread ends under it is done anyway, and the next gets a new thread', async () => {
    const hasher = lowPriorityHasher(1);
    const stored = await hasher.hash('before', options);
    const underWay = hasher.verify(stored, 'before');
    await endHashThreads();
    expect(await underWay).toBe(true);
    expect(await hasher.verify(stored, 'before')).toBe(true);
    expect(await hasher.verify(stored, 'after')).toBe(false);
  });

  it('a malformed stored hash is an error, which verifyPassword answers as a wrong password', async () => {
    const hasher = lowPriorityHasher(1);
    await expect(hasher.verify('not a hash', 'x')).rejects.toThrow();
  });
});
