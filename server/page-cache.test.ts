import { describe, expect, it } from 'vitest';
import {
  EVICTION_MEMORY_MS,
  PageCache,
  productTag,
  REFRESH_GRACE_MS,
  readNotification,
} from './page-cache.ts';

const page = (body: string, tags: number[] = []) => ({
  status: 200,
  body: Buffer.from(body),
  headers: [['content-type', 'text/html; charset=utf-8']] as [string, string][],
  tags: tags.map(productTag),
});

// Issue 3, "Fast, at a real catalog's size": anonymous pages render once and are evicted
// when a product they show changes.
describe('page cache', () => {
  it('serves a stored page with a strong ETag derived from its bytes', () => {
    const cache = new PageCache(60_000, 1_000_000);
    const stored = cache.set('a', page('<p>one</p>'), cache.beginRender());
    expect(cache.get('a')?.body.toString()).toBe('<p>one</p>');
    expect(stored.etag).toMatch(/^"[\w-]{27}"$/);
    expect(cache.set('b', page('<p>one</p>'), cache.beginRender()).etag).toBe(stored.etag);
    expect(cache.set('c', page('<p>two</p>'), cache.beginRender()).etag).not.toBe(stored.etag);
  });

  it('evicts exactly the pages that show a changed product', () => {
    const cache = new PageCache(60_000, 1_000_000);
    cache.set('book-1', page('1', [1, 2]), cache.beginRender());
    cache.set('book-3', page('3', [3]), cache.beginRender());
    cache.invalidate(['p:2']);
    expect(cache.get('book-1')).toBeUndefined();
    expect(cache.get('book-3')).toBeDefined();
  });

  it('does not store a rendering that began before the eviction of a product it shows', () => {
    const cache = new PageCache(60_000, 1_000_000);
    const before = cache.beginRender();
    cache.invalidate(['p:9']);
    cache.set('late', page('stale', [1, 9]), before);
    expect(cache.get('late')).toBeUndefined();
    // Begun after it: stored.
    cache.set('late', page('fresh', [1, 9]), cache.beginRender());
    expect(cache.get('late')?.body.toString()).toBe('fresh');
  });

  // Issue 15: an import evicts other products many times a second; a page rendering meanwhile
  // must still be stored, or every shopper's request renders it again.
  it('stores a rendering that began before the eviction of products it does not show', () => {
    const cache = new PageCache(60_000, 1_000_000);
    const before = cache.beginRender();
    cache.invalidate(['p:9', 'p:10']);
    cache.invalidate(['p:11']);
    cache.set('book-1', page('one', [1]), before);
    expect(cache.get('book-1')?.body.toString()).toBe('one');
  });

  it('stores nothing begun before a clear, or before an eviction it no longer remembers', () => {
    const cache = new PageCache(60_000, 1_000_000);
    let before = cache.beginRender();
    cache.clear();
    cache.set('a', page('a', [1]), before);
    expect(cache.get('a')).toBeUndefined();
    before = cache.beginRender();
    cache.invalidate(['p:9'], 1_000);
    // Long after: the eviction of p:9 is forgotten, so a render begun before it is refused.
    cache.invalidate(['p:10'], 1_000 + EVICTION_MEMORY_MS);
    cache.set('b', page('b', [9]), before);
    cache.set('c', page('c', [1]), before);
    expect([cache.get('b'), cache.get('c')]).toEqual([undefined, undefined]);
  });

  it('past its time to live, serves the old copy to everyone while one render is under way', () => {
    const cache = new PageCache(1_000, 1_000_000);
    const { storedAt } = cache.set('a', page('x'), cache.beginRender());
    expect(cache.get('a', storedAt + 999)).toBeDefined();
    expect(cache.claimRefresh('a', storedAt + 999)).toBe(false);
    // The first request past the time to live gets the old copy and starts the render...
    expect(cache.get('a', storedAt + 1_001)?.body.toString()).toBe('x');
    expect(cache.claimRefresh('a', storedAt + 1_001)).toBe(true);
    // ...the others, while it runs, get the old copy and start none...
    expect(cache.get('a', storedAt + 1_002)?.body.toString()).toBe('x');
    expect(cache.claimRefresh('a', storedAt + 1_002)).toBe(false);
    expect(cache.claimRefresh('a', storedAt + 1_000 + REFRESH_GRACE_MS)).toBe(false);
    // ...and once it is stored, the new one.
    const renewed = cache.set('a', page('y'), cache.beginRender());
    expect(cache.get('a', renewed.storedAt + 1)?.body.toString()).toBe('y');
    expect(cache.claimRefresh('a', renewed.storedAt + 1)).toBe(false);
  });

  it('begins another render when one took longer than the grace, and then gives up the page', () => {
    const cache = new PageCache(1_000, 1_000_000);
    const { storedAt } = cache.set('a', page('x'), cache.beginRender());
    expect(cache.claimRefresh('a', storedAt + 1_000)).toBe(true);
    expect(cache.claimRefresh('a', storedAt + 1_000 + REFRESH_GRACE_MS - 1)).toBe(false);
    expect(cache.claimRefresh('a', storedAt + 1_000 + REFRESH_GRACE_MS)).toBe(true);
    expect(cache.get('a', storedAt + 1_000 + 2 * REFRESH_GRACE_MS - 1)?.body.toString()).toBe('x');
    // Never stored again: past twice the grace the old copy goes.
    expect(cache.get('a', storedAt + 1_000 + 2 * REFRESH_GRACE_MS)).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.claimRefresh('a', storedAt + 1_000 + 2 * REFRESH_GRACE_MS)).toBe(false);
  });

  it('never serves a page nobody asked for since long past its time to live', () => {
    const cache = new PageCache(1_000, 1_000_000);
    const { storedAt } = cache.set('a', page('x'), cache.beginRender());
    expect(cache.get('a', storedAt + 60_000)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('drops the oldest pages past its byte budget', () => {
    const cache = new PageCache(60_000, 100);
    cache.set('a', page('a'.repeat(10)), cache.beginRender());
    for (const key of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']) {
      cache.set(key, page('b'.repeat(10)), cache.beginRender());
    }
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('k')).toBeDefined();
  });

  it('reads the notifications of migrations 0004 and 0007', () => {
    expect(readNotification('p:12,40')).toEqual({
      kind: 'products',
      ids: [12, 40],
      tags: ['p:12', 'p:40'],
    });
    expect(readNotification('u:7')).toEqual({ kind: 'accounts', userIds: [7] });
    expect(readNotification('all')).toEqual({ kind: 'all' });
    expect(readNotification('users')).toEqual({ kind: 'all' });
    expect(readNotification(null)).toEqual({ kind: 'all' });
    expect(readNotification('p:1,drop table')).toEqual({ kind: 'all' });
    for (const broken of ['p:', 'p:1,', 'p:,1', 'p:1,,2', 'p:12345678901', 'p: 1'])
      expect(readNotification(broken)).toEqual({ kind: 'all' });
    const many = Array.from({ length: 500 }, (_, i) => 1_000_000 + i);
    expect(readNotification(`p:${many.join(',')}`)).toMatchObject({ kind: 'products', ids: many });
  });

  // Issue 15: an import evicts a hundred thousand products; remembering each for
  // EVICTION_MEMORY_MS held shoppers' pages behind the bookkeeping.
  it('remembers evictions only while a render begun before them is under way', () => {
    const cache = new PageCache(60_000, 1_000_000);
    cache.invalidate(['p:1', 'p:2']);
    expect(cache.evictionsRemembered).toBe(0);
    const first = cache.beginRender();
    cache.invalidate(['p:3']);
    const second = cache.beginRender();
    cache.invalidate(['p:4']);
    expect(cache.evictionsRemembered).toBe(2);
    expect(cache.rendersUnderWay).toBe(2);
    // The first render ends: the second began after p:3's eviction, which it does not need.
    cache.set('first', page('1', [3]), first);
    cache.endRender(first);
    expect(cache.get('first')).toBeUndefined();
    expect(cache.evictionsRemembered).toBe(1);
    // p:4's eviction still refuses the second render of a page showing product 4.
    cache.set('second', page('2', [3, 4]), second);
    expect(cache.get('second')).toBeUndefined();
    cache.endRender(second);
    expect([cache.evictionsRemembered, cache.rendersUnderWay]).toEqual([0, 0]);
    // A render begun after all of it is stored.
    const third = cache.beginRender();
    cache.set('third', page('3', [3, 4]), third);
    cache.endRender(third);
    expect(cache.get('third')?.body.toString()).toBe('3');
  });
});
