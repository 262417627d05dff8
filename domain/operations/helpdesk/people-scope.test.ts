import { describe, expect, it } from 'vitest';
import { orgScopeOf } from '#domain/operations/staff-scope.ts';
import { accountChangeRefusal, isGrantableRole, personInScope } from './people-scope.ts';

const RIVERBEND = 1;
const LAKESHORE = 2;
const nobody = { orgId: null, campusOrgIds: [], sectionOrgIds: [] };

describe('personInScope (issue 39: the help desk sees the people of its organisation)', () => {
  it('a manager and store support find anyone, of any campus or none', () => {
    for (const roles of [['manager'], ['support']]) {
      const scope = orgScopeOf({ roles, orgId: null });
      expect(personInScope(scope, nobody)).toBe(true);
      expect(personInScope(scope, { ...nobody, orgId: LAKESHORE })).toBe(true);
    }
  });

  it("a campus's staff find an account of their organisation, a person of its roster, a member of its sections", () => {
    const scope = orgScopeOf({ roles: ['bookstore_manager'], orgId: RIVERBEND });
    expect(personInScope(scope, { ...nobody, orgId: RIVERBEND })).toBe(true);
    expect(personInScope(scope, { ...nobody, campusOrgIds: [RIVERBEND] })).toBe(true);
    expect(personInScope(scope, { ...nobody, sectionOrgIds: [LAKESHORE, RIVERBEND] })).toBe(true);
  });

  it("a campus's staff never find another campus's student, nor someone of no campus", () => {
    const scope = orgScopeOf({ roles: ['bookstore_manager'], orgId: RIVERBEND });
    expect(
      personInScope(scope, {
        orgId: LAKESHORE,
        campusOrgIds: [LAKESHORE],
        sectionOrgIds: [LAKESHORE],
      }),
    ).toBe(false);
    expect(personInScope(scope, nobody)).toBe(false);
  });

  it('staff of no organisation find nobody', () => {
    const scope = orgScopeOf({ roles: [], orgId: null });
    expect(personInScope(scope, { ...nobody, orgId: RIVERBEND })).toBe(false);
  });
});

describe('accountChangeRefusal (issue 39: who changes which account)', () => {
  const manager = { id: 1, roles: ['manager'] };
  const bookstore = { id: 2, roles: ['bookstore_manager'] };
  const student = { id: 3, roles: [] };

  it('only managers grant and revoke staff roles', () => {
    expect(accountChangeRefusal(manager, student, 'role')).toBeNull();
    expect(accountChangeRefusal(bookstore, student, 'role')).toBe(
      'ops.helpdesk.error.managersOnly',
    );
  });

  it("a campus's staff lock, unlock and mail students, never a manager's or support's account", () => {
    for (const change of ['lock', 'unlock', 'mail'] as const) {
      expect(accountChangeRefusal(bookstore, student, change)).toBeNull();
      expect(accountChangeRefusal(bookstore, { id: 4, roles: ['manager'] }, change)).toBe(
        'ops.helpdesk.error.protected',
      );
      expect(accountChangeRefusal(bookstore, { id: 5, roles: ['support'] }, change)).toBe(
        'ops.helpdesk.error.protected',
      );
    }
  });

  it('a manager changes another manager; nobody locks themselves out or changes their own roles', () => {
    expect(accountChangeRefusal(manager, { id: 9, roles: ['manager'] }, 'lock')).toBeNull();
    expect(accountChangeRefusal(manager, manager, 'lock')).toBe('ops.helpdesk.error.self');
    expect(accountChangeRefusal(manager, manager, 'role')).toBe('ops.helpdesk.error.self');
  });

  it('the roles granted are manager, bookstore manager and support', () => {
    expect(['manager', 'bookstore_manager', 'support'].every(isGrantableRole)).toBe(true);
    expect(isGrantableRole('admin')).toBe(false);
    expect(isGrantableRole('publisher')).toBe(false);
  });
});
