import { describe, expect, it } from 'vitest';
import {
  type EntitlementInput,
  type EntitlementMembership,
  entitlement,
  entryOf,
  isPhysicalCopy,
} from './entitlement.ts';

// The spec's table, row by row: course type (inclusive access, course fee, CDS, no
// auto-provisioning) × opting state × deadline × ownership × role (spec 1 §4, §5, §6; spec 2 §4).

const now = new Date('2026-03-10T15:00:00Z');
const days = (n: number) => new Date(now.getTime() + n * 86_400_000);

const member = (over: Partial<EntitlementMembership> = {}): EntitlementMembership => ({
  sectionId: 7,
  memberId: 70,
  role: 'student',
  optStatus: 'opted_in',
  isCourseFee: false,
  addDropDate: days(5),
  timeZone: 'America/New_York',
  startDate: '2026-02-01',
  endDate: '2026-05-15',
  disableAutoProvisioning: false,
  org: { isCdsEnabled: false },
  ...over,
});

const input = (over: Partial<EntitlementInput> = {}): EntitlementInput => ({
  signedIn: true,
  product: { productType: 'book', status: 'active', physical: false },
  ownerships: [],
  memberships: [],
  now,
  ...over,
});

const owned = (over: Partial<EntitlementInput['ownerships'][number]> = {}) => ({
  startsAt: days(-30),
  expiresAt: null,
  revokedAt: null,
  ...over,
});

describe('entitlement: ownership (spec 1 §3 isOwned, §4 priority 1)', () => {
  it('an owner reads, for life or until the rental ends', () => {
    expect(entitlement(input({ ownerships: [owned()] }))).toMatchObject({
      ok: true,
      entry: 'read',
      via: 'ownership',
      until: null,
    });
    const rental = entitlement(input({ ownerships: [owned({ expiresAt: days(10) })] }));
    expect(rental).toMatchObject({ ok: true, until: days(10) });
  });

  it('the longest of several ownerships counts', () => {
    const result = entitlement(
      input({ ownerships: [owned({ expiresAt: days(3) }), owned({ expiresAt: days(40) })] }),
    );
    expect(result).toMatchObject({ ok: true, until: days(40) });
  });

  it('an ended rental says when it ended and offers to buy', () => {
    expect(entitlement(input({ ownerships: [owned({ expiresAt: days(-2) })] }))).toEqual({
      ok: false,
      reason: 'reading.error.expired',
      params: { date: '2026-03-08' },
      wayBack: { kind: 'buy' },
    });
  });

  it('a refunded (revoked) ownership is refused as revoked', () => {
    expect(entitlement(input({ ownerships: [owned({ revokedAt: days(-1) })] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.revoked',
    });
    // A revocation dated later has not happened yet.
    expect(entitlement(input({ ownerships: [owned({ revokedAt: days(1) })] })).ok).toBe(true);
  });

  it('a revocation at this very instant, or one of a rental that also ended, reads as revoked', () => {
    const revoked = {
      ok: false,
      reason: 'access.reason.revoked',
      params: {},
      wayBack: { kind: 'buy' },
    };
    expect(entitlement(input({ ownerships: [owned({ revokedAt: now })] }))).toEqual(revoked);
    const refundedRental = owned({ expiresAt: days(-2), revokedAt: days(-5) });
    expect(entitlement(input({ ownerships: [refundedRental] }))).toEqual(revoked);
  });

  it('an ownership that has not started is neither revoked nor expired: not yet yours', () => {
    expect(
      entitlement(input({ ownerships: [owned({ startsAt: days(2), expiresAt: days(30) })] })),
    ).toMatchObject({ ok: false, reason: 'access.reason.notEntitled' });
  });

  it('owning a title both directly and through a collection reads as owning it', () => {
    expect(
      entitlement(input({ ownerships: [owned({ viaCollection: true }), owned()] })),
    ).toMatchObject({ ok: true, via: 'ownership' });
    expect(
      entitlement(input({ ownerships: [owned(), owned({ viaCollection: true })] })),
    ).toMatchObject({ ok: true, via: 'ownership' });
  });

  it('a section that gives nothing through the course does not say its term ended', () => {
    // Auto-provisioning disabled: the student buys; the section's end says nothing about it.
    const buyerOnly = member({ disableAutoProvisioning: true, endDate: '2026-02-20' });
    expect(entitlement(input({ memberships: [buyerOnly] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.notEntitled',
    });
  });

  it('an owned collection opens its items', () => {
    expect(entitlement(input({ ownerships: [owned({ viaCollection: true })] }))).toMatchObject({
      ok: true,
      via: 'collection',
    });
  });

  it('a withdrawn product stays open to its owners; a deleted one to nobody', () => {
    const withdrawn = { productType: 'book', status: 'withdrawn', physical: false };
    expect(entitlement(input({ product: withdrawn, ownerships: [owned()] })).ok).toBe(true);
    const deleted = { productType: 'book', status: 'deleted', physical: false };
    expect(entitlement(input({ product: deleted, ownerships: [owned()] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.notOpenable',
    });
  });
});

describe('entitlement: through a course section (spec 1 §4 Course fee, §5 courtesy access, §6)', () => {
  it('inclusive access, opted in: courtesy access until the end of the term', () => {
    expect(entitlement(input({ memberships: [member()] }))).toEqual({
      ok: true,
      entry: 'read',
      via: 'courtesy',
      until: new Date('2026-05-16T00:00:00Z'),
      sectionId: 7,
      memberId: 70,
    });
  });

  it('inclusive access at the bookstore-partner organisation: courtesy access too', () => {
    // The partner's banner says "You have courtesy access…": the rule gives it.
    expect(entitlement(input({ memberships: [member({ addDropDate: days(-3) })] }))).toMatchObject({
      ok: true,
      via: 'courtesy',
    });
  });

  it('opted out before the deadline: refused, with the deadline to opt back in', () => {
    const result = entitlement(input({ memberships: [member({ optStatus: 'opted_out' })] }));
    expect(result).toEqual({
      ok: false,
      reason: 'access.reason.optedOut',
      params: { deadline: '2026-03-15' },
      wayBack: { kind: 'optBackIn', sectionId: 7 },
    });
  });

  it('opted out after the deadline: refused, and the way back is to buy', () => {
    const result = entitlement(
      input({ memberships: [member({ optStatus: 'opted_out', addDropDate: days(-1) })] }),
    );
    expect(result).toMatchObject({
      ok: false,
      reason: 'access.reason.optedOutClosed',
      wayBack: { kind: 'buy' },
    });
  });

  it('opted out but owns it: the ownership still reads', () => {
    const result = entitlement(
      input({ memberships: [member({ optStatus: 'opted_out' })], ownerships: [owned()] }),
    );
    expect(result).toMatchObject({ ok: true, via: 'ownership' });
  });

  it('auto-provisioning disabled: no courtesy access, the student buys', () => {
    const result = entitlement(input({ memberships: [member({ disableAutoProvisioning: true })] }));
    expect(result).toMatchObject({ ok: false, reason: 'access.reason.notEntitled' });
  });

  it('course fee, opted in: Start Reading reads through the course fee', () => {
    const result = entitlement(
      input({ memberships: [member({ isCourseFee: true, disableAutoProvisioning: true })] }),
    );
    expect(result).toMatchObject({ ok: true, via: 'courseFee', sectionId: 7 });
  });

  it('course fee, opted out: blocked (spec 1 §6)', () => {
    const result = entitlement(
      input({ memberships: [member({ isCourseFee: true, optStatus: 'opted_out' })] }),
    );
    expect(result).toMatchObject({ ok: false, reason: 'access.reason.optedOut' });
  });

  it('CDS organisation: course-fee members read through the course-delivery link', () => {
    const cds = { org: { isCdsEnabled: true } };
    const result = entitlement(input({ memberships: [member({ ...cds, isCourseFee: true })] }));
    expect(result).toMatchObject({ ok: true, via: 'cds', memberId: 70 });
    // Without the course fee, offerings show and the student buys (spec 1 §5).
    expect(entitlement(input({ memberships: [member(cds)] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.notEntitled',
    });
  });

  it('the CDS route names the member: another member id opens nothing', () => {
    const result = entitlement(
      input({
        memberships: [member({ org: { isCdsEnabled: true }, isCourseFee: true })],
        through: { memberId: 71 },
      }),
    );
    expect(result).toMatchObject({ ok: false, reason: 'access.reason.notEntitled' });
  });

  it('a member id that is not the user’s opens nothing, even for an owner', () => {
    const result = entitlement(
      input({ ownerships: [owned()], memberships: [member()], through: { memberId: 99 } }),
    );
    expect(result).toMatchObject({ ok: false, reason: 'access.reason.notEntitled' });
    // Their own member id, as an owner: the ownership opens it.
    expect(
      entitlement(
        input({ ownerships: [owned()], memberships: [member()], through: { memberId: 70 } }),
      ),
    ).toMatchObject({ ok: true, via: 'ownership' });
  });

  it('professors and teaching assistants open their section’s materials', () => {
    for (const role of ['professor', 'teaching_assistant']) {
      const result = entitlement(
        input({ memberships: [member({ role, disableAutoProvisioning: true })] }),
      );
      expect(result).toMatchObject({ ok: true, via: 'instructor' });
    }
  });

  it('a term that has ended says when, and offers to buy', () => {
    const result = entitlement(
      input({ memberships: [member({ startDate: '2025-09-01', endDate: '2025-12-20' })] }),
    );
    expect(result).toEqual({
      ok: false,
      reason: 'access.reason.termEnded',
      params: { date: '2025-12-20' },
      wayBack: { kind: 'buy' },
    });
  });

  it('the last day of the term still reads; the next day does not', () => {
    const last = member({ endDate: '2026-03-10' });
    expect(entitlement(input({ memberships: [last] })).ok).toBe(true);
    expect(
      entitlement(input({ memberships: [last], now: new Date('2026-03-11T00:00:00Z') })).ok,
    ).toBe(false);
  });

  it('materials open two weeks before class starts, not earlier', () => {
    const future = member({ startDate: '2026-03-20', endDate: '2026-06-30' });
    expect(entitlement(input({ memberships: [future] })).ok).toBe(true);
    const later = member({ startDate: '2026-04-01', endDate: '2026-06-30' });
    expect(entitlement(input({ memberships: [later] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.notStarted',
      params: { date: '2026-03-18' },
    });
  });

  it('the section the route names wins over another that also grants', () => {
    const result = entitlement(
      input({
        memberships: [
          member({ sectionId: 1, memberId: 10, isCourseFee: true }),
          member({ sectionId: 2, memberId: 20 }),
        ],
        through: { sectionId: 2 },
      }),
    );
    expect(result).toMatchObject({ ok: true, via: 'courtesy', sectionId: 2 });
    const unnamed = entitlement(
      input({
        memberships: [
          member({ sectionId: 2, memberId: 20 }),
          member({ sectionId: 1, memberId: 10, isCourseFee: true }),
        ],
      }),
    );
    expect(unnamed).toMatchObject({ ok: true, via: 'courseFee', sectionId: 1 });
  });
});

// Issue 37: what mutation testing found untested in this rule.
describe('entitlement: the edges mutation testing found (issue 37)', () => {
  it('a rental that has not started yet is not read as expired', () => {
    expect(
      entitlement(input({ ownerships: [owned({ startsAt: days(1), expiresAt: days(30) })] })),
    ).toEqual({ ok: false, reason: 'access.reason.notEntitled', params: {}, wayBack: null });
  });

  it('materials open at the very instant two weeks before class, not a millisecond before', () => {
    // Class starts 2026-03-24: materials are visible from 2026-03-10T00:00:00Z.
    const section = member({ startDate: '2026-03-24', endDate: '2026-06-30' });
    const opening = new Date('2026-03-10T00:00:00Z');
    expect(entitlement(input({ memberships: [section], now: opening }))).toMatchObject({
      ok: true,
      via: 'courtesy',
    });
    expect(
      entitlement(input({ memberships: [section], now: new Date(opening.getTime() - 1) })),
    ).toMatchObject({
      ok: false,
      reason: 'access.reason.notStarted',
      params: { date: '2026-03-10' },
    });
  });

  it('the section the route names wins whichever order the memberships come in', () => {
    const courseFee = member({ sectionId: 1, memberId: 10, isCourseFee: true });
    const courtesy = member({ sectionId: 2, memberId: 20 });
    for (const memberships of [
      [courseFee, courtesy],
      [courtesy, courseFee],
    ]) {
      expect(entitlement(input({ memberships, through: { sectionId: 2 } }))).toMatchObject({
        ok: true,
        via: 'courtesy',
        sectionId: 2,
        memberId: 20,
      });
      expect(entitlement(input({ memberships, through: { sectionId: 1 } }))).toMatchObject({
        ok: true,
        via: 'courseFee',
        sectionId: 1,
      });
      expect(entitlement(input({ memberships }))).toMatchObject({ via: 'courseFee', sectionId: 1 });
    }
  });
});

describe('entitlement: who and what', () => {
  it('nobody signed in opens anything', () => {
    expect(entitlement(input({ signedIn: false, ownerships: [owned()] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.notSignedIn',
    });
  });

  it('a stranger is refused as not entitled, with no way back offered', () => {
    expect(entitlement(input())).toEqual({
      ok: false,
      reason: 'access.reason.notEntitled',
      params: {},
      wayBack: null,
    });
  });

  it('each type opens its own way; a physical product is not opened at all', () => {
    expect(entryOf('book')).toBe('read');
    expect(entryOf('ebundle')).toBe('read');
    expect(entryOf('courseware')).toBe('launch');
    expect(entryOf('classroom')).toBe('enter');
    expect(entryOf('collection')).toBe('open');
    expect(entryOf('physical_product')).toBeNull();
    const physical = { productType: 'physical_product', status: 'active', physical: true };
    expect(entitlement(input({ product: physical, ownerships: [owned()] }))).toMatchObject({
      ok: false,
      reason: 'access.reason.notOpenable',
    });
  });

  it('courseware launches and a classroom is entered through the course too', () => {
    const courseware = { productType: 'courseware', status: 'active', physical: false };
    expect(entitlement(input({ product: courseware, memberships: [member()] }))).toMatchObject({
      ok: true,
      entry: 'launch',
    });
    const classroom = { productType: 'classroom', status: 'active', physical: false };
    expect(entitlement(input({ product: classroom, ownerships: [owned()] }))).toMatchObject({
      ok: true,
      entry: 'enter',
    });
  });

  it('spec 1 §4 Course fee: the print version of a choice is bought, not opened by the course; ownership still counts', () => {
    const print = { productType: 'book', status: 'active', physical: true };
    for (const via of [
      member({ isCourseFee: true }),
      member(),
      member({ role: 'professor' }),
      member({ isCourseFee: true, org: { isCdsEnabled: true } }),
    ]) {
      expect(entitlement(input({ product: print, memberships: [via] }))).toMatchObject({
        ok: false,
        reason: 'access.reason.notEntitled',
      });
      // The same membership opens the digital version.
      expect(entitlement(input({ memberships: [via] })).ok).toBe(true);
    }
    expect(entitlement(input({ product: print, ownerships: [owned()] }))).toMatchObject({
      ok: true,
      via: 'ownership',
    });
  });

  it('a physical copy: a physical product, or a title with print or physical offerings only', () => {
    expect(isPhysicalCopy('physical_product', [])).toBe(true);
    expect(isPhysicalCopy('physical_product', ['digital'])).toBe(true);
    expect(isPhysicalCopy('book', ['print'])).toBe(true);
    expect(isPhysicalCopy('book', ['print', 'physical'])).toBe(true);
    expect(isPhysicalCopy('book', ['print', 'digital'])).toBe(false);
    expect(isPhysicalCopy('book', ['combo'])).toBe(false);
    expect(isPhysicalCopy('book', ['digital'])).toBe(false);
    // No offerings at all (withdrawn from sale): not judged physical, the course still opens it.
    expect(isPhysicalCopy('book', [])).toBe(false);
    expect(isPhysicalCopy('courseware', [])).toBe(false);
  });

  describe('entitlement: the edges of each window', () => {
    it('a rental ending this very instant has ended; of two ended rentals the later date shows', () => {
      expect(entitlement(input({ ownerships: [owned({ expiresAt: now })] }))).toMatchObject({
        ok: false,
        reason: 'reading.error.expired',
        params: { date: '2026-03-10' },
      });
      const two = entitlement(
        input({ ownerships: [owned({ expiresAt: days(-9) }), owned({ expiresAt: days(-4) })] }),
      );
      expect(two).toMatchObject({ ok: false, params: { date: '2026-03-06' } });
    });

    it('the day after the term: refused as ended, with the last day', () => {
      const result = entitlement(
        input({
          memberships: [member({ endDate: '2026-03-10' })],
          now: new Date('2026-03-11T00:00:00Z'),
        }),
      );
      expect(result).toMatchObject({
        ok: false,
        reason: 'access.reason.termEnded',
        params: { date: '2026-03-10' },
      });
    });

    it('an instructor is never told they opted out: their term’s end is the reason', () => {
      const result = entitlement(
        input({
          memberships: [
            member({
              role: 'professor',
              optStatus: 'opted_out',
              startDate: '2025-09-01',
              endDate: '2025-12-20',
            }),
          ],
        }),
      );
      expect(result).toMatchObject({ ok: false, reason: 'access.reason.termEnded' });
    });

    it('an opted-out student whose deadline is this very instant may no longer opt back in', () => {
      const result = entitlement(
        input({ memberships: [member({ optStatus: 'opted_out', addDropDate: now })] }),
      );
      expect(result).toMatchObject({ ok: false, reason: 'access.reason.optedOutClosed' });
    });

    it('an ownership that starts later does not open yet', () => {
      expect(entitlement(input({ ownerships: [owned({ startsAt: days(1) })] }))).toMatchObject({
        ok: false,
        reason: 'access.reason.notEntitled',
      });
    });
  });
});

describe('entitlement: the deadline is said as the course says it (issue 19, found by the walk)', () => {
  it('11:59 PM in New York is that day, not the next UTC day', () => {
    const deadline = new Date('2026-03-12T03:59:00Z'); // Mar 11, 11:59 PM EDT
    const result = entitlement(
      input({
        memberships: [
          member({ optStatus: 'opted_out', addDropDate: deadline, timeZone: 'America/New_York' }),
        ],
      }),
    );
    expect(result).toMatchObject({ ok: false, params: { deadline: '2026-03-11' } });
  });
});
