import { describe, expect, it } from 'vitest';
import { applySecurityHeaders } from './security-headers.ts';

function csp(formActions?: string[]): string {
  const headers = new Headers();
  applySecurityHeaders(headers, {
    scriptHashes: [],
    production: false,
    development: false,
    formActions,
  });
  return headers.get('Content-Security-Policy') ?? '';
}

describe('the Content-Security-Policy form-action', () => {
  it('allows our own origin only, by default', () => {
    expect(csp()).toContain("form-action 'self';");
  });

  it('adds the bookstore partners’ stores for the hand-off form (spec 2 §7)', () => {
    expect(csp(['https://store.example.edu'])).toContain(
      "form-action 'self' https://store.example.edu;",
    );
  });
});
