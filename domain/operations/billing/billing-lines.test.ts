import { describe, expect, it } from 'vitest';
import {
  type BilledCharge,
  billingRunLines,
  linesFingerprint,
  type RunDrop,
  type RunMember,
  type RunSection,
  runTotals,
} from './billing-lines.ts';

// Issue 39, billing the bursar: after a section's opt-out deadline the students still opted in
// are charged once; a drop within add/drop or a refund is credited in the next file; nobody
// opted out before the deadline is ever billed.
const deadline = new Date('2026-09-08T04:00:00Z');
const dropEnd = new Date('2026-09-15T04:00:00Z');
const now = new Date('2026-09-20T12:00:00Z');

const section: RunSection = {
  sectionId: 1,
  courseCode: 'BIO 101',
  sectionLabel: '001',
  addDropAt: deadline,
  dropPeriodEndsAt: dropEnd,
  courseFeeCents: 7900,
  timeZone: 'America/New_York',
};
const member = (userId: number, over: Partial<RunMember> = {}): RunMember => ({
  sectionId: 1,
  userId,
  role: 'student',
  optStatus: 'opted_in',
  addDropDate: deadline,
  campusId: `S${userId}`,
  name: `Student ${userId}`,
  email: `s${userId}@example.test`,
  ...over,
});
const drop = (userId: number, droppedAt: Date, over: Partial<RunDrop> = {}): RunDrop => ({
  sectionId: 1,
  userId,
  role: 'student',
  optStatus: 'opted_in',
  droppedAt,
  campusId: `S${userId}`,
  name: `Student ${userId}`,
  email: `s${userId}@example.test`,
  ...over,
});
const billed = (userId: number, over: Partial<BilledCharge> = {}): BilledCharge => ({
  chargeId: 100 + userId,
  sectionId: 1,
  userId,
  amountCents: 7900,
  campusId: `S${userId}`,
  credited: false,
  refunded: false,
  ...over,
});

describe('billingRunLines (issue 39)', () => {
  it('charges the opted-in students of a section past its deadline, never the opted-out', () => {
    const { lines } = billingRunLines({
      sections: [section],
      members: [member(1), member(2, { optStatus: 'opted_out' }), member(3, { role: 'professor' })],
      drops: [],
      charges: [],
      now,
    });
    expect(lines).toEqual([
      expect.objectContaining({ kind: 'charge', userId: 1, campusId: 'S1', amountCents: 7900 }),
    ]);
  });

  it('bills nobody before the deadline and lists the section as not yet billable', () => {
    const before = new Date('2026-09-08T03:59:59Z');
    const run = billingRunLines({
      sections: [section],
      members: [member(1)],
      drops: [],
      charges: [],
      now: before,
    });
    expect(run.lines).toEqual([]);
    expect(run.waiting).toEqual([
      {
        sectionId: 1,
        courseCode: 'BIO 101',
        sectionLabel: '001',
        deadline,
        timeZone: 'America/New_York',
      },
    ]);
  });

  it('waits for a late-added member until their own opt-out deadline (opting reads addDropDate)', () => {
    const later = new Date('2026-09-25T04:00:00Z');
    const run = billingRunLines({
      sections: [section],
      members: [member(1, { addDropDate: later })],
      drops: [],
      charges: [],
      now,
    });
    expect(run.lines).toEqual([]);
  });

  it('never bills a charge twice: an already billed student adds nothing', () => {
    const run = billingRunLines({
      sections: [section],
      members: [member(1)],
      drops: [],
      charges: [billed(1)],
      now,
    });
    expect(run.lines).toEqual([]);
  });

  it('lists a student without a campus id instead of billing them', () => {
    const run = billingRunLines({
      sections: [section],
      members: [member(1, { campusId: null })],
      drops: [],
      charges: [],
      now,
    });
    expect(run.lines).toEqual([]);
    expect(run.missingCampusId).toEqual([
      expect.objectContaining({ userId: 1, courseCode: 'BIO 101' }),
    ]);
  });

  it('credits a billed student who dropped within the add/drop period, once', () => {
    const drops = [drop(1, new Date('2026-09-10T12:00:00Z'))];
    const run = billingRunLines({
      sections: [section],
      members: [],
      drops,
      charges: [billed(1)],
      now,
    });
    expect(run.lines).toEqual([
      expect.objectContaining({
        kind: 'credit',
        userId: 1,
        amountCents: -7900,
        reversesChargeId: 101,
        creditReason: 'drop',
      }),
    ]);
    const again = billingRunLines({
      sections: [section],
      members: [],
      drops,
      charges: [billed(1, { credited: true })],
      now,
    });
    expect(again.lines).toEqual([]);
  });

  it('gives no credit for a drop after the add/drop period, and bills it if not yet billed', () => {
    const drops = [drop(1, new Date('2026-09-16T12:00:00Z'))];
    expect(
      billingRunLines({ sections: [section], members: [], drops, charges: [billed(1)], now }).lines,
    ).toEqual([]);
    expect(
      billingRunLines({ sections: [section], members: [], drops, charges: [], now }).lines,
    ).toEqual([expect.objectContaining({ kind: 'charge', userId: 1, amountCents: 7900 })]);
  });

  it('bills nobody who dropped within the add/drop period before being billed', () => {
    const drops = [drop(1, new Date('2026-09-10T12:00:00Z'))];
    expect(
      billingRunLines({ sections: [section], members: [], drops, charges: [], now }).lines,
    ).toEqual([]);
  });

  it('credits a refunded charge, even for a student still enrolled', () => {
    const run = billingRunLines({
      sections: [section],
      members: [member(1)],
      drops: [],
      charges: [billed(1, { refunded: true })],
      now,
    });
    expect(run.lines).toEqual([
      expect.objectContaining({
        kind: 'credit',
        creditReason: 'refund',
        amountCents: -7900,
        name: 'Student 1',
      }),
    ]);
  });

  it('orders lines by course, section and campus id; the totals add up', () => {
    const run = billingRunLines({
      sections: [
        section,
        { ...section, sectionId: 2, courseCode: 'ART 100', courseFeeCents: 5000 },
      ],
      members: [member(3), member(1), member(2, { sectionId: 2 })],
      drops: [],
      charges: [billed(4, { refunded: true })],
      now,
    });
    expect(run.lines.map((l) => `${l.courseCode}/${l.campusId}/${l.kind}`)).toEqual([
      'ART 100/S2/charge',
      'BIO 101/S1/charge',
      'BIO 101/S3/charge',
      'BIO 101/S4/credit',
    ]);
    const totals = runTotals(run.lines);
    expect(totals).toEqual({
      chargeCount: 3,
      creditCount: 1,
      chargedCents: 20800,
      creditedCents: -7900,
      totalCents: 12900,
    });
    expect(totals.chargedCents + totals.creditedCents).toBe(totals.totalCents);
  });

  it('the fingerprint changes when a line changes', () => {
    const a = billingRunLines({
      sections: [section],
      members: [member(1)],
      drops: [],
      charges: [],
      now,
    }).lines;
    const b = billingRunLines({
      sections: [section],
      members: [member(1), member(2)],
      drops: [],
      charges: [],
      now,
    }).lines;
    expect(linesFingerprint(a)).toBe(linesFingerprint([...a]));
    expect(linesFingerprint(a)).not.toBe(linesFingerprint(b));
  });
});
