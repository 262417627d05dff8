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
