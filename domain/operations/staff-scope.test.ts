import { describe, expect, it } from 'vitest';
import { inOrgScope, orgScopeOf } from './staff-scope.ts';

// Issue 39: a bookstore manager of one campus never sees another campus's things; a manager
// sees all.
describe('orgScopeOf / inOrgScope (issue 39, per-organisation scoping)', () => {
  it('a manager sees every organisation, and store-wide objects', () => {
    const scope = orgScopeOf({ roles: ['manager'], orgId: 1 });
    expect(inOrgScope(scope, 1)).toBe(true);
    expect(inOrgScope(scope, 2)).toBe(true);
    expect(inOrgScope(scope, null)).toBe(true);
  });

  it('store support sees every organisation (the help desk answers any student)', () => {
    expect(inOrgScope(orgScopeOf({ roles: ['support'], orgId: null }), 5)).toBe(true);
  });

  it('a bookstore manager sees their own organisation only', () => {
    const scope = orgScopeOf({ roles: ['bookstore_manager'], orgId: 3 });
    expect(inOrgScope(scope, 3)).toBe(true);
    expect(inOrgScope(scope, 4)).toBe(false);
    expect(inOrgScope(scope, null)).toBe(false);
  });

  it('staff without an organisation see nothing', () => {
    const scope = orgScopeOf({ roles: ['bookstore_manager'], orgId: null });
    expect(inOrgScope(scope, 1)).toBe(false);
    expect(inOrgScope(scope, null)).toBe(false);
  });
});
