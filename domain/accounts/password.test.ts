import { describe, expect, it } from 'vitest';
import {
  HASHES_AT_ONCE,
  hashPassword,
  hashTurns,
  setHashesAtOnce,
  verifyPassword,
} from './password.ts';

// Issue 40 (decision 044): when many students log in at once, a process computes at most
// HASHES_AT_ONCE password hashes at a time; the others wait their turn and all get an answer.

describe('password hashes take turns', () => {
  it(`at most ${HASHES_AT_ONCE} at once; every one answers, right or wrong`, async () => {
    const stored = await hashPassword('correct horse battery staple');
    expect(hashTurns()).toEqual({ running: 0, waiting: 0 });
    const checks = [
      ...Array.from({ length: 4 }, () => verifyPassword(stored, 'correct horse battery staple')),
      verifyPassword(stored, 'wrong horse battery staple'),
      verifyPassword(null, 'an unknown account still costs a hash'),
    ];
    expect(hashTurns()).toEqual({ running: HASHES_AT_ONCE, waiting: 6 - HASHES_AT_ONCE });
    expect(await Promise.all(checks)).toEqual([true, true, true, true, false, false]);
    expect(hashTurns()).toEqual({ running: 0, waiting: 0 });
  });

  it('the server sets how many at once; the next checks keep to it', async () => {
    const stored = await hashPassword('correct horse battery staple');
    setHashesAtOnce(1);
    try {
      const checks = [1, 2, 3].map(() => verifyPassword(stored, 'correct horse battery staple'));
      expect(hashTurns()).toEqual({ running: 1, waiting: 2 });
      expect(await Promise.all(checks)).toEqual([true, true, true]);
    } finally {
      setHashesAtOnce(HASHES_AT_ONCE);
    }
    expect(() => setHashesAtOnce(0)).toThrow(RangeError);
  });

  it('a stored value that is not a hash is a wrong password, and gives its turn back', async () => {
    expect(await verifyPassword('not-a-hash', 'anything')).toBe(false);
    expect(hashTurns()).toEqual({ running: 0, waiting: 0 });
  });
});
