import { describe, expect, it } from 'vitest';
import {
  courseFeeApplies,
  courtesyAccess,
  DAY_MS,
  daysLeft,
  deadlineDay,
  deadlineText,
  ecommerceChannelOpen,
  isBeforeDeadline,
  OPT_MOVES,
  type OptingMember,
  type OptingSection,
  offeringsShow,
  optingEligibility,
  optMoveRefusal,
} from './opting.ts';

const now = new Date('2026-11-23T15:00:00Z');
const member: OptingMember = {
  role: 'student',
  optStatus: 'opted_in',
  canUpdateOptStatus: true,
  addDropDate: new Date(now.getTime() + 10 * DAY_MS),
};
const section: OptingSection = { optingMethod: 'opt-out', disableAutoProvisioning: false };
const org = { isCdsEnabled: false, isBookstorePartner: false };

describe('who may opt (spec 1 §5, §6; spec 2 §4)', () => {
  it('a student may opt when auto-provisioning is on, the method is not no-opt and canUpdateOptStatus', () => {
    expect(optingEligibility(member, section)).toBe(true);
  });

  it('spec 1 §6: only students opt, never professors or teaching assistants', () => {
    expect(optingEligibility({ ...member, role: 'professor' }, section)).toBe(false);
    expect(optingEligibility({ ...member, role: 'teaching_assistant' }, section)).toBe(false);
  });

  it('spec 1 §5: not with auto-provisioning disabled, a no-opt method or canUpdateOptStatus off', () => {
    expect(optingEligibility(member, { ...section, disableAutoProvisioning: true })).toBe(false);
    expect(optingEligibility(member, { ...section, optingMethod: 'no-opt' })).toBe(false);
    expect(optingEligibility({ ...member, canUpdateOptStatus: false }, section)).toBe(false);
  });
});

describe('the deadline (spec 1 §4; spec 2 §4, §9)', () => {
  it('spec 2 §9: days left = floor((deadline − now) / 86,400,000 ms)', () => {
    expect(daysLeft(new Date(now.getTime() + 10 * DAY_MS), now)).toBe(10);
    expect(daysLeft(new Date(now.getTime() + 10 * DAY_MS - 1), now)).toBe(9);
    expect(daysLeft(new Date(now.getTime() + DAY_MS - 1), now)).toBe(0);
    expect(daysLeft(new Date(now.getTime() - 1), now)).toBe(-1);
  });

  it('spec 2 §4: opting is allowed before the deadline, not at it or after', () => {
    expect(isBeforeDeadline(new Date(now.getTime() + 1), now)).toBe(true);
    expect(isBeforeDeadline(now, now)).toBe(false);
    expect(isBeforeDeadline(new Date(now.getTime() - 1), now)).toBe(false);
  });

  it('spec 1 §4: the deadline shows as YYYY-MM-DD in the course time zone', () => {
    const deadline = new Date('2026-12-03T03:30:00Z');
    expect(deadlineDay(deadline, 'UTC')).toBe('2026-12-03');
    expect(deadlineDay(deadline, 'America/New_York')).toBe('2026-12-02');
  });
});

describe('the opting lifecycle guard (spec 2 §4)', () => {
  it('moves each status to the other one', () => {
    expect(OPT_MOVES).toEqual({ opted_in: 'opted_out', opted_out: 'opted_in' });
    expect(optMoveRefusal({ member, section, org, to: 'opted_out', now })).toBeNull();
    expect(
      optMoveRefusal({
        member: { ...member, optStatus: 'opted_out' },
        section,
        org,
        to: 'opted_in',
        now,
      }),
    ).toBeNull();
  });

  it('refuses a move to the status the member already has', () => {
    expect(optMoveRefusal({ member, section, org, to: 'opted_in', now })).toEqual({
      kind: 'unchanged',
      messageKey: 'opting.error.unchanged',
    });
  });

  it('spec 2 §4: after the deadline neither opting out nor back in', () => {
    const late = { ...member, addDropDate: new Date(now.getTime() - 1) };
    expect(optMoveRefusal({ member: late, section, org, to: 'opted_out', now })).toEqual({
      kind: 'closed',
      messageKey: 'opting.error.deadline',
    });
    expect(
      optMoveRefusal({
        member: { ...late, optStatus: 'opted_out' },
        section,
        org,
        to: 'opted_in',
        now,
      })?.kind,
    ).toBe('closed');
  });

  it('spec 1 §5: an ineligible member is forbidden, whatever the deadline', () => {
    expect(
      optMoveRefusal({
        member: { ...member, canUpdateOptStatus: false },
        section,
        org,
        to: 'opted_out',
        now,
      }),
    ).toEqual({ kind: 'forbidden', messageKey: 'opting.error.notAllowed' });
  });

  it('spec 1 §4: the custom bookstore-partner organisation does not opt here', () => {
    expect(
      optMoveRefusal({
        member,
        section,
        org: { ...org, isBookstorePartner: true },
        to: 'opted_out',
        now,
      }),
    ).toEqual({ kind: 'forbidden', messageKey: 'opting.error.partner' });
  });
});

describe('access and buying (spec 1 §5; spec 2 §4)', () => {
  it('courtesy access: cdsEnabled off, auto-provisioning on and not opted out', () => {
    const base = { isCdsEnabled: false, disableAutoProvisioning: false } as const;
    expect(courtesyAccess({ ...base, optStatus: 'opted_in' })).toBe(true);
    expect(courtesyAccess({ ...base, optStatus: 'opted_out' })).toBe(false);
    expect(courtesyAccess({ ...base, isCdsEnabled: true, optStatus: 'opted_in' })).toBe(false);
    expect(courtesyAccess({ ...base, disableAutoProvisioning: true, optStatus: 'opted_in' })).toBe(
      false,
    );
  });

  it('offerings show when cdsEnabled or auto-provisioning is disabled', () => {
    expect(offeringsShow({ isCdsEnabled: false, disableAutoProvisioning: false })).toBe(false);
    expect(offeringsShow({ isCdsEnabled: true, disableAutoProvisioning: false })).toBe(true);
    expect(offeringsShow({ isCdsEnabled: false, disableAutoProvisioning: true })).toBe(true);
  });

  it('the ecommerce channel: non-partner organisations, opted-out students after the deadline', () => {
    const after = {
      isBookstorePartner: false,
      role: 'student',
      optStatus: 'opted_out',
      addDropDate: new Date(now.getTime() - 1),
      now,
    } as const;
    expect(ecommerceChannelOpen(after)).toBe(true);
    expect(ecommerceChannelOpen({ ...after, addDropDate: new Date(now.getTime() + 1) })).toBe(
      false,
    );
    expect(ecommerceChannelOpen({ ...after, optStatus: 'opted_in' })).toBe(false);
    expect(ecommerceChannelOpen({ ...after, isBookstorePartner: true })).toBe(false);
    expect(ecommerceChannelOpen({ ...after, role: 'professor' })).toBe(false);
  });

  it('spec 1 §6: an opted-out student reads nothing through the course fee', () => {
    expect(courseFeeApplies({ isCourseFee: true, optStatus: 'opted_in' })).toBe(true);
    expect(courseFeeApplies({ isCourseFee: true, optStatus: 'opted_out' })).toBe(false);
    expect(courseFeeApplies({ isCourseFee: false, optStatus: 'opted_in' })).toBe(false);
  });
});

describe('the deadline as the student decides by it (issue 19; spec 1 §3 addDropInCourseTimezone)', () => {
  it('gives date and time with the time zone, in the course’s time zone, in English', () => {
    // 03:59 UTC on the 16th is 11:59 PM on the 15th in New York, daylight time.
    const deadline = new Date('2026-09-16T03:59:00Z');
    expect(deadlineText(deadline, 'America/New_York', 'en')).toBe('Sep 15, 2026, 11:59 PM EDT');
    expect(deadlineText(deadline, 'America/Los_Angeles', 'en')).toBe('Sep 15, 2026, 8:59 PM PDT');
  });

  it('and in Canadian French, standard time in winter', () => {
    const deadline = new Date('2026-12-16T04:59:00Z');
    expect(deadlineText(deadline, 'America/New_York', 'fr-CA')).toBe('15 déc. 2026, 23 h 59 HNE');
    expect(deadlineText(new Date('2026-09-16T03:59:00Z'), 'America/Toronto', 'fr-CA')).toBe(
      '15 sept. 2026, 23 h 59 HAE',
    );
  });

  it('the day it shows is the day the banner shows (YYYY-MM-DD, same time zone)', () => {
    const deadline = new Date('2026-09-16T03:59:00Z');
    expect(deadlineDay(deadline, 'America/New_York')).toBe('2026-09-15');
    expect(deadlineText(deadline, 'America/New_York', 'en')).toMatch(/^Sep 15, 2026/);
  });
});
