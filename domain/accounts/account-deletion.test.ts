import { describe, expect, it } from 'vitest';
import {
  ACCOUNT_DATA_FATE,
  DEFAULT_ORDER_RETENTION_YEARS,
  mayPurgeOrder,
  retentionCutoff,
  tombstone,
  tombstoneEmail,
} from './account-deletion.ts';

describe('what deleting an account keeps and removes (issue 20, Privacy self-service)', () => {
  it('issue 20: orders and payments are kept; personal data and access are not', () => {
    expect(ACCOUNT_DATA_FATE.orders).toBe('retain');
    expect(ACCOUNT_DATA_FATE.payments).toBe('retain');
    expect(ACCOUNT_DATA_FATE.orderShippingAddresses).toBe('remove');
    expect(ACCOUNT_DATA_FATE.account).toBe('anonymise');
    expect(ACCOUNT_DATA_FATE.ownerships).toBe('end');
    for (const personal of [
      'password',
      'sessions',
      'cart',
      'readingPositions',
      'readingEvents',
      'readerSettings',
      'readingAnnotations',
      'classroomNotes',
      'courseLaunches',
      'sectionMemberships',
      'roles',
    ] as const) {
      expect(ACCOUNT_DATA_FATE[personal]).toBe('remove');
    }
  });

  it('issue 20: only orders and payments are retained', () => {
    const retained = Object.entries(ACCOUNT_DATA_FATE)
      .filter(([, fate]) => fate === 'retain')
      .map(([data]) => data)
      .sort();
    expect(retained).toEqual(['orders', 'payments']);
  });

  it('issue 20: the tombstone keeps no name, address, password, organisation or language', () => {
    expect(tombstone(42)).toEqual({
      email: 'deleted-42@deleted.invalid',
      firstName: '',
      lastName: '',
      passwordHash: null,
      orgId: null,
      languageCode: null,
      isActive: false,
      mustAcceptEula: false,
      eulaAcceptedAt: null,
    });
    // A valid address (users_email_shape) in a domain that can never receive mail (RFC 2606).
    expect(tombstoneEmail(7)).toMatch(/^[^@\s]+@[^@\s]+\.invalid$/);
  });

  it('issue 20: retention is seven years by default', () => {
    expect(DEFAULT_ORDER_RETENTION_YEARS).toBe(7);
    expect(retentionCutoff(new Date('2033-11-27T10:00:00Z'), 7)).toEqual(
      new Date('2026-11-27T10:00:00Z'),
    );
  });

  it('issue 20: a deleted account’s order is purged only once its retention has passed', () => {
    const now = new Date('2033-11-27T10:00:00Z');
    const old = new Date('2026-11-27T09:59:59Z');
    const recent = new Date('2026-11-27T10:00:01Z');
    expect(mayPurgeOrder({ placedAt: old, accountDeleted: true }, now, 7)).toBe(true);
    expect(mayPurgeOrder({ placedAt: recent, accountDeleted: true }, now, 7)).toBe(false);
    // A live account's orders are never purged, however old.
    expect(mayPurgeOrder({ placedAt: old, accountDeleted: false }, now, 7)).toBe(false);
    expect(mayPurgeOrder({ placedAt: old, accountDeleted: true }, now, 8)).toBe(false);
  });
});
