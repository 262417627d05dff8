import { describe, expect, it } from 'vitest';
import { safeNextPath } from './safe-next.ts';

describe('safeNextPath (spec 1 §2 Login takes a next query with the return URL)', () => {
  it('keeps a same-origin path with its query', () => {
    expect(safeNextPath('/book/12/calculus?offeringId=3&offeringType=digital')).toBe(
      '/book/12/calculus?offeringId=3&offeringType=digital',
    );
  });

  it.each([
    'https://evil.example/',
    '//evil.example/path',
    '/\\evil.example',
    'javascript:alert(1)',
    'shelf',
    '/\u0000x',
    '',
  ])('refuses %j and falls back to the home page', (next) => {
    expect(safeNextPath(next)).toBe('/');
  });

  it('falls back when next is missing', () => {
    expect(safeNextPath(null, '/shelf')).toBe('/shelf');
  });
});
