import { describe, expect, it } from 'vitest';
import { partnerStoreOrigin, partnerStoreUrl } from './partner-store.ts';

describe('a bookstore partner store (spec 1 §4 Partner hand-off; spec 2 §7)', () => {
  it('is used only as a plain http(s) address, without credentials', () => {
    expect(partnerStoreUrl('https://store.example.edu/books')?.href).toBe(
      'https://store.example.edu/books',
    );
    expect(partnerStoreUrl(null)).toBeNull();
    expect(partnerStoreUrl('javascript:alert(1)')).toBeNull();
    expect(partnerStoreUrl('/relative')).toBeNull();
    expect(partnerStoreUrl('https://user:pw@store.example.edu/')).toBeNull();
  });

  it('gives the origin pages may post the hand-off form to (CSP form-action)', () => {
    expect(partnerStoreOrigin('https://store.example.edu/course-materials?x=1')).toBe(
      'https://store.example.edu',
    );
    expect(partnerStoreOrigin('ftp://store.example.edu')).toBeNull();
  });
});
