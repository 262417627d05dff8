import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearTimedCaches,
  forgetProducts,
  LIST_FORGET_INTERVAL_MS,
  TimedCache,
} from './timed-cache.ts';

// Issue 15: an import names a thousand changed products a second. Each process forgets only
// what shows them, and its product lists at most once an interval, never its sessions or sites.
describe('what a products change forgets', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    clearTimedCaches();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const pages = new TimedCache<string, { id: number; items: number[] }>(60_000, 100, {
    products: (page) => [page.id, ...page.items],
  });
  const trays = new TimedCache<string, string>(60_000, 100, 'product lists');
  const sessions = new TimedCache<string, string>(60_000, 100);

  it('forgets the entries that name a changed product, its own or an item, and no other', () => {
    pages.set('a', { id: 1, items: [] });
    pages.set('b', { id: 2, items: [7] });
    pages.set('c', { id: 3, items: [8] });
    sessions.set('s', 'signed in');
    forgetProducts([1, 7]);
    expect(pages.get('a')).toBeUndefined();
    expect(pages.get('b')).toBeUndefined();
    expect(pages.get('c')).toEqual({ id: 3, items: [8] });
    expect(sessions.get('s')).toBe('signed in');
  });

  it('forgets product lists at once, then at most once an interval, and always after the last change', () => {
    trays.set('home', 'v1');
    forgetProducts([1]);
    expect(trays.get('home')).toBeUndefined();
    trays.set('home', 'v2');
    forgetProducts([2]);
    forgetProducts([3]);
    // Within the interval the list stays...
    expect(trays.get('home')).toBe('v2');
    vi.advanceTimersByTime(LIST_FORGET_INTERVAL_MS - 1);
    expect(trays.get('home')).toBe('v2');
    // ...and goes at its end, once, for both changes.
    vi.advanceTimersByTime(1);
    expect(trays.get('home')).toBeUndefined();
    trays.set('home', 'v3');
    vi.advanceTimersByTime(10 * LIST_FORGET_INTERVAL_MS);
    expect(trays.get('home')).toBe('v3');
    // A change long after: forgotten at once again.
    forgetProducts([4]);
    expect(trays.get('home')).toBeUndefined();
  });

  it('forgets everything on any other change', () => {
    pages.set('a', { id: 1, items: [] });
    trays.set('home', 'v1');
    sessions.set('s', 'signed in');
    clearTimedCaches();
    expect([pages.get('a'), trays.get('home'), sessions.get('s')]).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

// Issue 15: when a site's entry expired, every shopper's request arriving before it was loaded
// again went to a busy database, and each loaded it.
describe('loading an entry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  function loader(values: string[]) {
    const calls: ((value: string) => void)[] = [];
    const load = () =>
      new Promise<string>((resolve) => {
        calls.push(resolve);
      });
    const answer = () => calls.shift()!(values.shift()!);
    return { load, answer, calls };
  }

  it('loads once for every caller asking while it runs', async () => {
    const cache = new TimedCache<string, string>(1_000, 10);
    const { load, answer, calls } = loader(['a']);
    const asked = [cache.getOrLoad('k', load), cache.getOrLoad('k', load)];
    expect(calls).toHaveLength(1);
    answer();
    expect(await Promise.all(asked)).toEqual(['a', 'a']);
    expect(cache.get('k')).toBe('a');
  });

  it('within staleMs past its time to live, answers the old value and loads in the background', async () => {
    const cache = new TimedCache<string, string>(1_000, 10, 'other', 5_000);
    cache.set('k', 'old');
    vi.advanceTimersByTime(1_500);
    const { load, answer, calls } = loader(['new']);
    expect(await cache.getOrLoad('k', load)).toBe('old');
    expect(await cache.getOrLoad('k', load)).toBe('old');
    expect(cache.get('k')).toBe('old');
    expect(calls).toHaveLength(1);
    answer();
    await vi.waitFor(() => expect(cache.get('k')).toBe('new'));
  });

  it('past staleMs, waits for the load as any cache does', async () => {
    const stale = new TimedCache<string, string>(1_000, 10, 'other', 5_000);
    const plain = new TimedCache<string, string>(1_000, 10);
    stale.set('k', 'old');
    plain.set('k', 'old');
    vi.advanceTimersByTime(1_000);
    expect(plain.get('k')).toBeUndefined();
    expect(stale.get('k')).toBe('old');
    vi.advanceTimersByTime(5_000);
    expect(stale.get('k')).toBeUndefined();
    const { load, answer } = loader(['new']);
    const asked = stale.getOrLoad('k', load);
    answer();
    expect(await asked).toBe('new');
  });

  it('keeps the old value when the background load fails', async () => {
    const cache = new TimedCache<string, string>(1_000, 10, 'other', 5_000);
    cache.set('k', 'old');
    vi.advanceTimersByTime(1_500);
    const failing = () => Promise.reject(new Error('the database is away'));
    expect(await cache.getOrLoad('k', failing)).toBe('old');
    await Promise.resolve();
    expect(cache.get('k')).toBe('old');
  });

  it('neither keeps nor shares a load begun before the cache was cleared', async () => {
    const cache = new TimedCache<string, string>(1_000, 10);
    const first = loader(['before the change']);
    const before = cache.getOrLoad('k', first.load);
    cache.clear();
    const second = loader(['after the change']);
    const after = cache.getOrLoad('k', second.load);
    expect(second.calls).toHaveLength(1);
    first.answer();
    expect(await before).toBe('before the change');
    expect(cache.get('k')).toBeUndefined();
    second.answer();
    expect(await after).toBe('after the change');
    expect(cache.get('k')).toBe('after the change');
  });
});
