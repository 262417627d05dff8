// spec 1 §3 userAvailability.isOwned: a product is owned while one of the user's ownerships is
// in its window: started, not yet expired (null means no expiry) and not revoked.
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
