import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { restartDelay } from './cluster.ts';
import { loadConfig, MAX_WEB_CONCURRENCY } from './config.ts';
import { workerCount } from './worker-count.ts';

// Issue 40: "In production on PostgreSQL, the server uses every core (one worker per core by
// default, `WEB_CONCURRENCY` to set it) … The embedded database stays the one-process default."

const strong = () => randomBytes(32).toString('base64url');
const production = (env: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  NODE_ENV: 'production',
  SESSION_SECRET: strong(),
  ACCESS_CODE_KEY: strong(),
  LTI_KEY: strong(),
  PUBLIC_ORIGIN: 'https://store.example.edu',
  PAYMENTS: 'test',
  DATABASE_URL: 'postgres://shelfmark@db.example.edu/shelfmark',
  ...env,
});

describe('WEB_CONCURRENCY', () => {
  it('issue 40: a whole number of processes from 1 to the cap; unset, the machine decides', () => {
    expect(loadConfig(production()).WEB_CONCURRENCY).toBeUndefined();
    expect(loadConfig(production({ WEB_CONCURRENCY: '1' })).WEB_CONCURRENCY).toBe(1);
    expect(loadConfig(production({ WEB_CONCURRENCY: '4' })).WEB_CONCURRENCY).toBe(4);
    expect(
      loadConfig(production({ WEB_CONCURRENCY: String(MAX_WEB_CONCURRENCY) })).WEB_CONCURRENCY,
    ).toBe(MAX_WEB_CONCURRENCY);
  });

  it('issue 40: anything else stops the start, naming the variable', () => {
    for (const bad of ['0', '-2', '2.5', 'four', '', String(MAX_WEB_CONCURRENCY + 1)]) {
      expect(() => loadConfig(production({ WEB_CONCURRENCY: bad })), bad).toThrow(
        /Invalid configuration:\n {2}WEB_CONCURRENCY: /,
      );
    }
  });

  it('issue 40: more than one process on the embedded database is refused in production', () => {
    expect(() => loadConfig(production({ DATABASE_URL: undefined, WEB_CONCURRENCY: '2' }))).toThrow(
      /WEB_CONCURRENCY: more than one process needs PostgreSQL \(DATABASE_URL\)/,
    );
    expect(
      loadConfig(production({ DATABASE_URL: undefined, WEB_CONCURRENCY: '1' })).WEB_CONCURRENCY,
    ).toBe(1);
    // Outside production (a shell that sets it for another app) it changes nothing.
    expect(loadConfig({ WEB_CONCURRENCY: '2' }).WEB_CONCURRENCY).toBe(2);
  });

  it('issue 40: the local test identity provider keeps its sign-ins in one process', () => {
    expect(() =>
      loadConfig(production({ DEV_CAMPUS_IDP_PORT: '3011', WEB_CONCURRENCY: '2' })),
    ).toThrow(/WEB_CONCURRENCY: the local test identity provider \(DEV_CAMPUS_IDP_PORT\)/);
  });
});

describe('workerCount', () => {
  const count = (env: NodeJS.ProcessEnv, cores = 2) => workerCount(loadConfig(env), cores);

  it('issue 40: on PostgreSQL in production, one worker per core by default', () => {
    expect(count(production(), 2)).toEqual({ workers: 2, reason: 'one per core' });
    expect(count(production(), 8).workers).toBe(8);
    expect(count(production(), 1).workers).toBe(1);
    // A machine of many cores stays under the cap (connections, memory).
    expect(count(production(), 256).workers).toBe(MAX_WEB_CONCURRENCY);
  });

  it('issue 40: WEB_CONCURRENCY sets it, above or below the cores', () => {
    expect(count(production({ WEB_CONCURRENCY: '1' }), 8)).toEqual({
      workers: 1,
      reason: 'WEB_CONCURRENCY',
    });
    expect(count(production({ WEB_CONCURRENCY: '6' }), 2).workers).toBe(6);
  });

  it('issue 40: the embedded database stays the one-process default', () => {
    expect(count(production({ DATABASE_URL: undefined }), 8).workers).toBe(1);
  });

  it('one process outside production, and with the local test identity provider unless set', () => {
    expect(count({ DATABASE_URL: 'postgres://localhost/x' }, 8).workers).toBe(1);
    expect(count({ NODE_ENV: 'test', DATABASE_URL: 'postgres://localhost/x' }, 8).workers).toBe(1);
    expect(count(production({ DEV_CAMPUS_IDP_PORT: '3011' }), 8).workers).toBe(1);
  });
});

describe('restartDelay', () => {
  it('issue 40: a worker that dies is replaced at once, one that keeps dying ever more slowly', () => {
    expect(restartDelay(1)).toBe(250);
    expect(restartDelay(2)).toBe(500);
    expect(restartDelay(3)).toBe(1_000);
    const delays = Array.from({ length: 20 }, (_, i) => restartDelay(i + 1));
    expect(delays).toEqual([...delays].sort((a, b) => a - b));
    expect(Math.max(...delays)).toBe(30_000);
  });
});
