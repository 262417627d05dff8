import { REVOCATION_REASONS, type RevocationReason } from '#db/schema/shelf.ts';
import { isActiveOwnership, type OwnershipWindow } from './ownership.ts';

// Issue 39: the help desk sees "ownerships and how each was granted" — and, for one that no
// longer gives access, why: a revocation says its reason (a refund, an opt-out, an enrolment
// that ended, …), an access period that ran out says so. Active exactly when
// isActiveOwnership says so (spec 1 §3 userAvailability.isOwned): one window, one rule.

export type OwnershipEnd =
  | { kind: 'active' }
  | { kind: 'notStarted' }
  | { kind: 'expired'; at: Date }
  /** `unrecorded`: revoked before reasons were kept (migration 0048) and none was found. */
  | { kind: 'revoked'; at: Date; reason: RevocationReason | 'unrecorded' };

export function ownershipEnd(
  ownership: OwnershipWindow & { revokedReason: string | null },
  now: Date,
): OwnershipEnd {
  if (isActiveOwnership(ownership, now)) return { kind: 'active' };
  const { revokedAt, revokedReason, startsAt, expiresAt } = ownership;
  if (revokedAt !== null && revokedAt <= now) {
    const known = (REVOCATION_REASONS as readonly string[]).includes(revokedReason ?? '');
    return {
      kind: 'revoked',
      at: revokedAt,
      reason: known ? (revokedReason as RevocationReason) : 'unrecorded',
    };
  }
  if (startsAt > now) return { kind: 'notStarted' };
  return { kind: 'expired', at: expiresAt! };
}
