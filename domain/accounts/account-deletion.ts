// What "Delete my account" keeps and what it removes (issue 20, Privacy self-service: "orders
// and payments kept for a retention period set in configuration, default seven years, without
// the personal data; access ended"). The one place this is decided: the service
// (privacy.ts) applies each entry in one transaction (tests/integration/privacy.test.ts).

export type Fate =
  /** The rows are deleted. */
  | 'remove'
  /** The row stays, its personal fields replaced (the users row becomes a tombstone). */
  | 'anonymise'
  /** The row stays as a record, its access ended (ownerships revoked). */
  | 'end'
  /** Kept for the retention period, pointing only at the tombstone; then purged. */
  | 'retain';

export const ACCOUNT_DATA_FATE = {
  account: 'anonymise',
  password: 'remove',
  roles: 'remove',
  accountFlags: 'remove',
  sessions: 'remove',
  loginAttempts: 'remove',
  cart: 'remove',
  readingPositions: 'remove',
  readingEvents: 'remove',
  readingAllowances: 'remove',
  readerSettings: 'remove',
  readingAnnotations: 'remove',
  classroomNotes: 'remove',
  courseLaunches: 'remove',
  sectionMemberships: 'remove',
  privacyRequests: 'remove',
  analyticsEvents: 'anonymise',
  // Whom the outbox's mails were for (issue 39): the tombstone, no longer the address.
  mailRecipients: 'anonymise',
  ownerships: 'end',
  orders: 'retain',
  orderShippingAddresses: 'remove',
  payments: 'retain',
} as const satisfies Record<string, Fate>;

export type AccountData = keyof typeof ACCOUNT_DATA_FATE;

/** ORDER_RETENTION_YEARS when it is not set: seven years (issue 20). */
export const DEFAULT_ORDER_RETENTION_YEARS = 7;

/** The address a deleted account keeps: unique, and in a domain that never receives mail. */
export function tombstoneEmail(userId: number): string {
  return `deleted-${userId}@deleted.invalid`;
}

/** The users row of a deleted account: nothing left that names or reaches the person. */
export function tombstone(userId: number) {
  return {
    email: tombstoneEmail(userId),
    firstName: '',
    lastName: '',
    passwordHash: null,
    orgId: null,
    languageCode: null,
    isActive: false,
    mustAcceptEula: false,
    eulaAcceptedAt: null,
  };
}

/** Orders placed before this instant, of deleted accounts, have outlived their retention. */
export function retentionCutoff(now: Date, years: number): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - years);
  return cutoff;
}

/**
 * Whether a kept order of a deleted account may be purged now: only orders of deleted
 * accounts, and only once the retention period since the order was placed has passed.
 */
export function mayPurgeOrder(
  order: { placedAt: Date; accountDeleted: boolean },
  now: Date,
  years: number,
): boolean {
  return order.accountDeleted && order.placedAt < retentionCutoff(now, years);
}
