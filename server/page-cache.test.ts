import { describe, expect, it } from 'vitest';
import { PageCache, productTag, readNotification } from './page-cache.ts';

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
    const stored = cache.set('a', page('<p>one</p>'), cache.generation);
    expect(cache.get('a')?.body.toString()).toBe('<p>one</p>');
    expect(stored.etag).toMatch(/^"[\w-]{27}"$/);
    expect(cache.set('b', page('<p>one</p>'), cache.generation).etag).toBe(stored.etag);
    expect(cache.set('c', page('<p>two</p>'), cache.generation).etag).not.toBe(stored.etag);
  });

  it('evicts exactly the pages that show a changed product', () => {
    const cache = new PageCache(60_000, 1_000_000);
    cache.set('book-1', page('1', [1, 2]), cache.generation);
    cache.set('book-3', page('3', [3]), cache.generation);
    cache.invalidate(['p:2']);
    expect(cache.get('book-1')).toBeUndefined();
    expect(cache.get('book-3')).toBeDefined();
  });

  it('does not store a rendering that began before an eviction', () => {
    const cache = new PageCache(60_000, 1_000_000);
    const before = cache.generation;
    cache.invalidate(['p:9']);
    cache.set('late', page('stale', [1]), before);
    expect(cache.get('late')).toBeUndefined();
  });

  it('forgets pages older than the time to live', () => {
    const cache = new PageCache(1_000, 1_000_000);
    const { storedAt } = cache.set('a', page('x'), cache.generation);
    expect(cache.get('a', storedAt + 999)).toBeDefined();
    expect(cache.get('a', storedAt + 1_001)).toBeUndefined();
  });

  it('drops the oldest pages past its byte budget', () => {
    const cache = new PageCache(60_000, 100);
    cache.set('a', page('a'.repeat(10)), cache.generation);
    for (const key of ['b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k']) {
      cache.set(key, page('b'.repeat(10)), cache.generation);
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
  });
});
