import { describe, expect, it } from 'vitest';
import { DAY_MS, type OptingMember } from './opting.ts';
import { optingBanner } from './opting-banner.ts';

const now = new Date('2026-11-23T15:00:00Z');
const member: OptingMember = {
  role: 'student',
  optStatus: 'opted_in',
  canUpdateOptStatus: true,
  addDropDate: new Date(now.getTime() + 10 * DAY_MS + 3_600_000),
};
const section = { optingMethod: 'opt-out', disableAutoProvisioning: false, timeZone: 'UTC' };
const org = { isCdsEnabled: false, isBookstorePartner: false };
const partner = { ...org, isBookstorePartner: true };
const closed = { ...member, addDropDate: new Date(now.getTime() - DAY_MS) };

describe('the opting banner (spec 1 §4 Opting; spec 2 §8 Opt messages)', () => {
  it('opted in before the deadline: days left and the deadline as YYYY-MM-DD', () => {
    expect(optingBanner({ member, section, org, now })).toEqual({
      kind: 'standard',
      optStatus: 'opted_in',
      daysLeft: 10,
      deadline: '2026-12-03',
    });
  });

  it('opted out before the deadline: the opt-in message', () => {
    expect(
      optingBanner({ member: { ...member, optStatus: 'opted_out' }, section, org, now }),
    ).toMatchObject({ kind: 'standard', optStatus: 'opted_out' });
  });

  it('after the deadline the banner goes: no opting left (spec 2 §4)', () => {
    expect(optingBanner({ member: closed, section, org, now })).toBeNull();
  });

  it('spec 1 §5: nobody who may not opt sees it (teachers, no-opt, canUpdateOptStatus off)', () => {
    expect(
      optingBanner({ member: { ...member, role: 'professor' }, section, org, now }),
    ).toBeNull();
    expect(
      optingBanner({ member, section: { ...section, optingMethod: 'no-opt' }, org, now }),
    ).toBeNull();
    expect(
      optingBanner({ member: { ...member, canUpdateOptStatus: false }, section, org, now }),
    ).toBeNull();
  });

  it('spec 1 §4: the custom organisation, opted out before and after the deadline', () => {
    expect(
      optingBanner({ member: { ...member, optStatus: 'opted_out' }, section, org: partner, now }),
    ).toMatchObject({ kind: 'partner', message: 'optedOut', open: true, daysLeft: 10 });
    expect(
      optingBanner({ member: { ...closed, optStatus: 'opted_out' }, section, org: partner, now }),
    ).toMatchObject({ kind: 'partner', message: 'optedOutClosed', open: false });
  });

  it('spec 1 §4: the custom organisation, opted in: courtesy access until the add/drop date', () => {
    expect(optingBanner({ member, section, org: partner, now })).toMatchObject({
      kind: 'partner',
      message: 'optedIn',
      deadline: '2026-12-03',
    });
    // No courtesy access in a CDS-enabled organisation (spec 1 §5), nor after the date.
    expect(
      optingBanner({ member, section, org: { ...partner, isCdsEnabled: true }, now }),
    ).toBeNull();
    expect(optingBanner({ member: closed, section, org: partner, now })).toBeNull();
  });
});
