import { describe, expect, it } from 'vitest';
import {
  canSwitchTo,
  IMPERSONATION_MINUTES,
  impersonationExpiry,
  impersonationForbids,
  impersonationRefusal,
  isRecordedWhileSwitched,
  switchRefusal,
} from './impersonation.ts';

const manager = { id: 1, roles: ['manager'], canImpersonate: true, isImpersonating: false };
const student = { id: 7, roles: [], isActive: true };

describe('Switch Account (issue 39)', () => {
  it('issue 39: it ends by itself 30 minutes after it starts', () => {
    expect(IMPERSONATION_MINUTES).toBe(30);
    expect(impersonationExpiry(new Date('2026-09-01T12:00:00Z')).toISOString()).toBe(
      '2026-09-01T12:30:00.000Z',
    );
  });

  it('a manager allowed to impersonate switches to a student', () => {
    expect(switchRefusal(manager, student)).toBeNull();
    expect(canSwitchTo(manager, student)).toBe(true);
  });

  it("issue 39: it never reaches another manager's, a bookstore manager's or support's account, nor one's own", () => {
    for (const role of ['manager', 'bookstore_manager', 'support', 'admin']) {
      expect(switchRefusal(manager, { ...student, roles: [role] })).toBe(
        'ops.helpdesk.switch.error.staff',
      );
    }
    expect(switchRefusal(manager, { ...student, id: manager.id })).toBe(
      'ops.helpdesk.switch.error.self',
    );
  });

  it('only a manager with the impersonation flag, not already acting as someone, switches', () => {
    expect(switchRefusal({ ...manager, canImpersonate: false }, student)).toBe(
      'ops.helpdesk.switch.error.notAllowed',
    );
    expect(switchRefusal({ ...manager, roles: ['bookstore_manager'] }, student)).toBe(
      'ops.helpdesk.switch.error.notAllowed',
    );
    expect(switchRefusal({ ...manager, isImpersonating: true }, student)).toBe(
      'ops.helpdesk.switch.error.already',
    );
  });

  it('a locked account is not switched to', () => {
    expect(switchRefusal(manager, { ...student, isActive: false })).toBe(
      'ops.helpdesk.switch.error.locked',
    );
    expect(canSwitchTo(manager, { ...student, isActive: false })).toBe(false);
  });

  it('issue 39: acting as someone forbids password, e-mail, passkeys, second factor, payment and privacy', () => {
    for (const action of [
      'password',
      'email',
      'passkeys',
      'secondFactor',
      'payment',
      'privacy',
    ] as const) {
      expect(impersonationForbids(action)).toBe(true);
      expect(impersonationRefusal({ isImpersonating: true }, action)).toBe(
        `ops.helpdesk.impersonation.refused.${action}`,
      );
      expect(impersonationRefusal({ isImpersonating: false }, action)).toBeNull();
      expect(impersonationRefusal(null, action)).toBeNull();
    }
  });
});

describe('what is recorded while switched (issue 39: every action, with both identities)', () => {
  it('every request that may change something, not the page-view counters', () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      expect(isRecordedWhileSwitched(method, '/cart')).toBe(true);
    }
    expect(isRecordedWhileSwitched('POST', '/api/cart/items')).toBe(true);
    expect(isRecordedWhileSwitched('GET', '/shelf')).toBe(false);
    expect(isRecordedWhileSwitched('HEAD', '/shelf')).toBe(false);
    expect(isRecordedWhileSwitched('POST', '/api/events/page-view')).toBe(false);
  });
});
