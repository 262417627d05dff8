import type { ServerBuild } from 'react-router';
import { describe, expect, it } from 'vitest';
import { pageMethodsOf } from './page-methods.ts';

// Issue 18: which methods a page URL serves (the Allow header of a 405, a 404 for no page), and
// issue 36: the answers are remembered by path, `?index` kept apart.

const page = () => null;
const act = async () => null;
type Module = { default?: typeof page; action?: typeof act };
/** A route of the build: under `parentId`, at `path` or the index of its parent. */
const route = (id: string, parentId: string | undefined, at: string | 'index', module: Module) => ({
  id,
  ...(parentId ? { parentId } : {}),
  ...(at === 'index' ? { index: true } : { path: at }),
  module,
});
const routes = Object.fromEntries(
  [
    route('root', undefined, '', { default: page }),
    route('routes/home', 'root', 'index', { default: page }),
    route('routes/cart', 'root', 'cart', { default: page, action: act }),
    route('routes/cart-index', 'routes/cart', 'index', { default: page }),
    route('routes/logout', 'root', 'logout', { action: act }),
    route('routes/book', 'root', 'book/:id', { default: page }),
    route('routes/missing', 'root', '*', { default: page }),
  ].map((r) => [r.id, r]),
) as unknown as ServerBuild['routes'];
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
