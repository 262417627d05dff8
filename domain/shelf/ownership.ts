import { and, gt, isNull, lte, or, type SQL } from 'drizzle-orm';
import { ownerships } from '#db/schema/shelf.ts';

// spec 1 §3 userAvailability.isOwned: a product is owned while one of the user's ownerships is
// in its window: started, not yet expired (null means no expiry) and not revoked (a revocation
// dated later has not happened yet). Asked in two forms, both here and tested against each
// other (tests/integration/ownership.test.ts): in TypeScript for rows already loaded, and as a
// SQL condition for queries that must not load what is not owned.
export type OwnershipWindow = {
  startsAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
};

export function isActiveOwnership(ownership: OwnershipWindow, now: Date): boolean {
  if (ownership.revokedAt !== null && ownership.revokedAt <= now) return false;
  if (ownership.startsAt > now) return false;
  return ownership.expiresAt === null || ownership.expiresAt > now;
}

/** isActiveOwnership as a condition on the ownerships table. */
export function activeOwnership(now: Date): SQL {
  return and(
    or(isNull(ownerships.revokedAt), gt(ownerships.revokedAt, now)),
    lte(ownerships.startsAt, now),
    or(isNull(ownerships.expiresAt), gt(ownerships.expiresAt, now)),
  ) as SQL;
}
