import { describe, expect, it } from 'vitest';
import { isActiveOwnership } from './ownership.ts';

const now = new Date('2026-03-01T12:00:00Z');
const day = 86_400_000;
const at = (days: number) => new Date(now.getTime() + days * day);

describe('isActiveOwnership (spec 1 §3 userAvailability.isOwned)', () => {
  it('an ownership without expiry that has started is active', () => {
    expect(isActiveOwnership({ startsAt: at(-1), expiresAt: null, revokedAt: null }, now)).toBe(
      true,
    );
  });

  it('an ownership that starts later is not active yet', () => {
    expect(isActiveOwnership({ startsAt: at(1), expiresAt: null, revokedAt: null }, now)).toBe(
      false,
    );
  });

  it('an ownership is active up to, but not at, its expiry', () => {
    expect(isActiveOwnership({ startsAt: at(-10), expiresAt: at(1), revokedAt: null }, now)).toBe(
      true,
    );
    expect(isActiveOwnership({ startsAt: at(-10), expiresAt: now, revokedAt: null }, now)).toBe(
      false,
    );
  });

  it('a revoked ownership is not active, even without expiry', () => {
    expect(isActiveOwnership({ startsAt: at(-10), expiresAt: null, revokedAt: at(-1) }, now)).toBe(
      false,
    );
  });
});
