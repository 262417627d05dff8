import type { ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pageMethodsOf } from './page-methods.ts';

// Issue 18: which methods a page URL serves (the Allow header of a 405, a 404 for no page), and
// issue 36: the answers are remembered by path, `?index` kept apart.

const page = () => null;
const act = async () => null;
const routes = {
  root: { id: 'root', path: '', module: { default: page } },
  'routes/home': { id: 'routes/home', parentId: 'root', index: true, module: { default: page } },
  'routes/cart': {
    id: 'routes/cart',
    parentId: 'root',
    path: 'cart',
    module: { default: page, action: act },
  },
  'routes/cart-index': {
    id: 'routes/cart-index',
    parentId: 'routes/cart',
    index: true,
    module: { default: page },
  },
  'routes/logout': {
    id: 'routes/logout',
    parentId: 'root',
    path: 'logout',
    module: { action: act },
  },
  'routes/book': {
    id: 'routes/book',
    parentId: 'root',
    path: 'book/:id',
    module: { default: page },
  },
  'routes/missing': {
    id: 'routes/missing',
    parentId: 'root',
    path: '*',
    module: { default: page },
  },
} as unknown as ServerBuild['routes'];
const methodsOf = pageMethodsOf({ routes } as ServerBuild);

describe('pageMethodsOf', () => {
  it('says GET, HEAD and POST where the page has an action, POST alone where it only acts', () => {
    expect(methodsOf('/cart', '')).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    expect(methodsOf('/logout', '')).toEqual(['POST', 'OPTIONS']);
    expect(methodsOf('/book/12', '')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(methodsOf('/book/12.data', '')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('answers null where only the catch-all matches', () => {
    expect(methodsOf('/no/such/page', '')).toBeNull();
    // Asked again, from memory, the same.
    expect(methodsOf('/no/such/page', '')).toBeNull();
  });

  it('keeps a post to an index route (`?index`) apart from a post to its parent', () => {
    expect(methodsOf('/cart', '?index')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(methodsOf('/cart', '')).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
    expect(methodsOf('/cart', '?index')).toEqual(['GET', 'HEAD', 'OPTIONS']);
    expect(methodsOf('/_root.data', '?index')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('still answers right after thousands of paths have filled its memory', () => {
    for (let id = 0; id < 2_000; id += 1) methodsOf(`/book/${id}`, '');
    expect(methodsOf('/logout', '')).toEqual(['POST', 'OPTIONS']);
    expect(methodsOf('/nowhere', '')).toBeNull();
  });
});
