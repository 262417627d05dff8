import { describe, expect, it } from 'vitest';
import { eulaRedirect } from './eula.ts';

const base = {
  loggedIn: true,
  mustAcceptEula: true,
  siteExempt: false,
  pathAndQuery: '/shelf?x=1',
};

describe('EULA redirect (spec 1 §2 Routes)', () => {
  it('sends a user who must accept to /account/eula with path and query', () => {
    expect(eulaRedirect(base)).toBe('/account/eula?next=%2Fshelf%3Fx%3D1');
  });
  it('leaves anonymous visitors, accepted users and the exempt host alone', () => {
    expect(eulaRedirect({ ...base, loggedIn: false })).toBeNull();
    expect(eulaRedirect({ ...base, mustAcceptEula: false })).toBeNull();
    expect(eulaRedirect({ ...base, siteExempt: true })).toBeNull();
  });
  it('never redirects the EULA page itself or logout', () => {
    expect(eulaRedirect({ ...base, pathAndQuery: '/account/eula?next=/' })).toBeNull();
    expect(eulaRedirect({ ...base, pathAndQuery: '/ajax/logout/' })).toBeNull();
  });
});
