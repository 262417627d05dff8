import { describe, expect, it } from 'vitest';
import type { Entitlement } from '#domain/access/entitlement.ts';
import { accessCounts, accessWay } from './access-through.ts';

const granted = (via: Extract<Entitlement, { ok: true }>['via']): Entitlement => ({
  ok: true,
  entry: 'read',
  via,
  until: null,
  sectionId: 1,
  memberId: 1,
});
const refused: Entitlement = {
  ok: false,
  reason: 'access.reason.optedOut',
  params: {},
  wayBack: null,
};

// Issue 38, "Instructor analytics count access, not only purchases": every opted-in student
// reads a course-fee material without owning it; the page counts them, and says through what.
describe('through what a student has access', () => {
  it('the course fee, CDS and courtesy access count, not only what was bought', () => {
    expect(accessWay(granted('courseFee'), [])).toBe('courseFee');
    expect(accessWay(granted('cds'), [])).toBe('courseFee');
    expect(accessWay(granted('courtesy'), [])).toBe('inclusiveAccess');
  });
  it('an ownership says how it came: bought, a code, the course fee acquired, free', () => {
    expect(accessWay(granted('ownership'), ['purchase'])).toBe('purchase');
    expect(accessWay(granted('ownership'), ['code'])).toBe('code');
    expect(accessWay(granted('ownership'), ['course_fee'])).toBe('courseFee');
    expect(accessWay(granted('ownership'), ['inclusive_access'])).toBe('inclusiveAccess');
    expect(accessWay(granted('ownership'), ['free'])).toBe('free');
    expect(accessWay(granted('ownership'), ['sample'])).toBe('free');
    // Bought and redeemed: the purchase names it.
    expect(accessWay(granted('ownership'), ['code', 'purchase'])).toBe('purchase');
    expect(accessWay(granted('collection'), [])).toBe('purchase');
  });
  it('no access when the rule refuses it; an instructor is no student', () => {
    expect(accessWay(refused, ['purchase'])).toBeNull();
    expect(accessWay(granted('instructor'), [])).toBeNull();
  });
  it('counts the students with access, by way', () => {
    expect(accessCounts(['courseFee', 'courseFee', 'purchase', null, 'code'])).toEqual({
      total: 4,
      byWay: { purchase: 1, courseFee: 2, code: 1, inclusiveAccess: 0, free: 0 },
    });
    expect(accessCounts([]).total).toBe(0);
  });
});
