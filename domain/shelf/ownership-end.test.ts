import { describe, expect, it } from 'vitest';
import { isActiveOwnership } from './ownership.ts';
import { ownershipEnd } from './ownership-end.ts';

const NOW = new Date('2026-12-06T15:00:00Z');
const BEFORE = new Date('2026-11-01T00:00:00Z');
const LATER = new Date('2027-01-01T00:00:00Z');
const window = { startsAt: BEFORE, expiresAt: null, revokedAt: null, revokedReason: null };

describe('why an ownership no longer gives access (issue 39, help desk)', () => {
  it('issue 39: a revoked ownership says its reason, and when', () => {
    const at = new Date('2026-12-01T10:00:00Z');
    for (const reason of ['refund', 'optOut', 'enrolmentEnded', 'roleChanged', 'accountDeleted']) {
      expect(ownershipEnd({ ...window, revokedAt: at, revokedReason: reason }, NOW)).toEqual({
        kind: 'revoked',
        at,
        reason,
      });
    }
  });

  it('issue 39: a revocation without a recorded reason (before migration 0048) says so', () => {
    expect(ownershipEnd({ ...window, revokedAt: BEFORE, revokedReason: null }, NOW)).toEqual({
      kind: 'revoked',
      at: BEFORE,
      reason: 'unrecorded',
    });
    expect(
      ownershipEnd({ ...window, revokedAt: BEFORE, revokedReason: 'somethingNew' }, NOW),
    ).toMatchObject({ reason: 'unrecorded' });
  });

  it('spec 1 §3: an access period that ran out is expired; one to come has not started', () => {
    expect(ownershipEnd({ ...window, expiresAt: NOW }, NOW)).toEqual({ kind: 'expired', at: NOW });
    expect(ownershipEnd({ ...window, startsAt: LATER }, NOW)).toEqual({ kind: 'notStarted' });
    // A revocation dated later has not happened yet (ownership.ts).
    expect(ownershipEnd({ ...window, revokedAt: LATER, revokedReason: 'refund' }, NOW)).toEqual({
      kind: 'active',
    });
  });

  it('spec 1 §3: active exactly when isActiveOwnership says so', () => {
    const dates = [null, BEFORE, NOW, LATER];
    for (const expiresAt of dates) {
      for (const revokedAt of dates) {
        for (const startsAt of [BEFORE, NOW, LATER]) {
          if (expiresAt !== null && expiresAt <= startsAt) continue;
          const ownership = { startsAt, expiresAt, revokedAt, revokedReason: null };
          expect(ownershipEnd(ownership, NOW).kind === 'active').toBe(
            isActiveOwnership(ownership, NOW),
          );
        }
      }
    }
  });
});
