import { describe, expect, it } from 'vitest';
import {
  billingOpen,
  courseFeeChargeCents,
  dropIsCredited,
  dropPeriodEnd,
  dropStillChargedCents,
} from './course-fee-billing.ts';

// Issue 39, Billing the bursar: the students still opted in after the deadline are charged the
// course fee; nobody opted out is ever billed; late drops within add/drop are credited.
describe('courseFeeChargeCents (issue 39)', () => {
  const student = { role: 'student', optStatus: 'opted_in' as const, courseFeeCents: 7900 };

  it('charges an opted-in student the section fee', () => {
    expect(courseFeeChargeCents(student)).toBe(7900);
  });

  it('never charges an opted-out student, an instructor, or where there is no fee', () => {
    expect(courseFeeChargeCents({ ...student, optStatus: 'opted_out' })).toBeNull();
    expect(courseFeeChargeCents({ ...student, role: 'professor' })).toBeNull();
    expect(courseFeeChargeCents({ ...student, role: 'teaching_assistant' })).toBeNull();
    expect(courseFeeChargeCents({ ...student, courseFeeCents: null })).toBeNull();
    expect(courseFeeChargeCents({ ...student, courseFeeCents: 0 })).toBeNull();
  });
});

describe('billingOpen / dropPeriodEnd / dropIsCredited (issue 39)', () => {
  const deadline = new Date('2026-09-08T03:59:59Z');

  it('opens billing at the deadline, not a moment before', () => {
    expect(billingOpen(deadline, new Date('2026-09-08T03:59:58Z'))).toBe(false);
    expect(billingOpen(deadline, deadline)).toBe(true);
  });

  it('the add/drop period ends at its own instant, or at the opt-out deadline', () => {
    const own = new Date('2026-09-15T03:59:59Z');
    expect(dropPeriodEnd({ addDropAt: deadline, dropPeriodEndsAt: own })).toEqual(own);
    expect(dropPeriodEnd({ addDropAt: deadline, dropPeriodEndsAt: null })).toEqual(deadline);
  });

  it('credits a drop up to the end of the period, not after', () => {
    expect(dropIsCredited({ droppedAt: deadline, dropPeriodEnd: deadline })).toBe(true);
    expect(
      dropIsCredited({ droppedAt: new Date('2026-09-08T04:00:00Z'), dropPeriodEnd: deadline }),
    ).toBe(false);
  });
});

describe('dropStillChargedCents (issue 39)', () => {
  const member = { role: 'student', optStatus: 'opted_in' as const, courseFeeCents: 7900 };
  const optOutDeadline = new Date('2026-09-08T04:00:00Z');
  const dropPeriodEnd = new Date('2026-09-15T04:00:00Z');

  it('a drop after the add/drop period still owes the fee', () => {
    const droppedAt = new Date('2026-09-20T12:00:00Z');
    expect(dropStillChargedCents({ member, droppedAt, optOutDeadline, dropPeriodEnd })).toBe(7900);
  });

  it('a drop within the add/drop period, or before the deadline, owes nothing', () => {
    for (const droppedAt of [
      new Date('2026-09-10T12:00:00Z'),
      dropPeriodEnd,
      new Date('2026-09-01T12:00:00Z'),
    ]) {
      expect(
        dropStillChargedCents({ member, droppedAt, optOutDeadline, dropPeriodEnd }),
      ).toBeNull();
    }
  });

  it('nobody opted out at the drop owes anything', () => {
    const droppedAt = new Date('2026-09-20T12:00:00Z');
    expect(
      dropStillChargedCents({
        member: { ...member, optStatus: 'opted_out' },
        droppedAt,
        optOutDeadline,
        dropPeriodEnd,
      }),
    ).toBeNull();
  });
});
