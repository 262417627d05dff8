import { describe, expect, it } from 'vitest';
import {
  adoptionPercent,
  type DashboardSection,
  daysToDeadline,
  defaultTerm,
  departmentFigures,
  optOutSeries,
  type StandingFacts,
  sectionFigures,
  standingOf,
  totalFigures,
} from './term-figures.ts';

const optOut = { optingMethod: 'opt-out', disableAutoProvisioning: false };
const facts = (overrides: Partial<StandingFacts> = {}): StandingFacts => ({
  optStatus: 'opted_in',
  canUpdateOptStatus: true,
  beforeDeadline: true,
  choseThemself: false,
  ...overrides,
});

describe('standingOf (issue 39: not yet decided)', () => {
  it('issue 39: a student who may still opt out and made no change of their own is undecided', () => {
    expect(standingOf(facts(), optOut)).toBe('undecided');
  });

  it('issue 39: a student who chose to stay (opted out, then back in) has decided', () => {
    expect(standingOf(facts({ choseThemself: true }), optOut)).toBe('optedIn');
  });

  it('issue 39: an opted-out student is opted out, whoever moved them', () => {
    expect(standingOf(facts({ optStatus: 'opted_out' }), optOut)).toBe('optedOut');
    expect(standingOf(facts({ optStatus: 'opted_out', beforeDeadline: false }), optOut)).toBe(
      'optedOut',
    );
  });

  it('issue 39: after the deadline nobody is undecided', () => {
    expect(standingOf(facts({ beforeDeadline: false }), optOut)).toBe('optedIn');
  });

  it('issue 39, spec 1 §5: a student who may not opt has no decision to make', () => {
    expect(standingOf(facts(), { optingMethod: 'no-opt', disableAutoProvisioning: false })).toBe(
      'optedIn',
    );
    expect(standingOf(facts(), { optingMethod: 'opt-out', disableAutoProvisioning: true })).toBe(
      'optedIn',
    );
    expect(standingOf(facts({ canUpdateOptStatus: false }), optOut)).toBe('optedIn');
  });
});

describe('daysToDeadline (issue 39: days to the deadline, in the section time zone)', () => {
  it('counts calendar days in the section time zone, 0 on the day itself', () => {
    // 23:59 in New York on 15 September is 03:59 UTC on the 16th.
    const deadline = new Date('2026-09-16T03:59:00Z');
    expect(daysToDeadline(deadline, new Date('2026-09-14T12:00:00Z'), 'America/New_York')).toBe(1);
    expect(daysToDeadline(deadline, new Date('2026-09-15T13:00:00Z'), 'America/New_York')).toBe(0);
    // Past midnight UTC but still the 15th in New York: the deadline's day, not the day before.
    expect(daysToDeadline(deadline, new Date('2026-09-16T01:00:00Z'), 'America/New_York')).toBe(0);
  });

  it('reads the same instants differently in another time zone', () => {
    const deadline = new Date('2026-09-16T03:59:00Z');
    const now = new Date('2026-09-15T23:30:00Z');
    expect(daysToDeadline(deadline, now, 'America/New_York')).toBe(0);
    // In Tokyo the deadline is 16 Sept 12:59 and now is 16 Sept 08:30.
    expect(daysToDeadline(deadline, now, 'Asia/Tokyo')).toBe(0);
    // In Honolulu now is 15 Sept 13:30 and the deadline 15 Sept 17:59.
    expect(daysToDeadline(deadline, now, 'Pacific/Honolulu')).toBe(0);
    expect(daysToDeadline(deadline, new Date('2026-09-14T23:30:00Z'), 'Pacific/Honolulu')).toBe(1);
  });

  it('a clock change in between neither adds nor loses a day', () => {
    // New York leaves daylight time on 1 November 2026: that week has a 25-hour day.
    const deadline = new Date('2026-11-05T04:59:00Z'); // 4 Nov, 23:59 EST
    const now = new Date('2026-10-28T04:30:00Z'); // 28 Oct, 00:30 EDT
    expect(daysToDeadline(deadline, now, 'America/New_York')).toBe(7);
    // Spring forward, 8 March 2026: a 23-hour day.
    expect(
      daysToDeadline(
        new Date('2026-03-10T03:59:00Z'), // 9 Mar, 23:59 EDT
        new Date('2026-03-07T05:30:00Z'), // 7 Mar, 00:30 EST
        'America/New_York',
      ),
    ).toBe(2);
  });

  it('is null at and after the deadline ("Deadline passed")', () => {
    const deadline = new Date('2026-09-16T03:59:00Z');
    expect(daysToDeadline(deadline, deadline, 'America/New_York')).toBeNull();
    expect(daysToDeadline(deadline, new Date('2026-10-01T00:00:00Z'), 'UTC')).toBeNull();
  });
});

const section = (overrides: Partial<DashboardSection> = {}): DashboardSection => ({
  id: 1,
  department: 'BIO',
  courseCode: null,
  courseNumber: '101',
  courseType: 'inclusive_access',
  sectionNumber: '001',
  name: 'BIO 101 - 001',
  addDropAt: new Date('2026-09-16T03:59:00Z'),
  timeZone: 'America/New_York',
  courseFeeCents: 7900,
  ...optOut,
  ...overrides,
});

describe('sectionFigures and totals (issue 39)', () => {
  const now = new Date('2026-09-10T12:00:00Z');
  const sections = [
    section(),
    section({ id: 2, department: 'CHEM', courseFeeCents: null }),
    section({ id: 3, department: 'BIO', courseNumber: '201', courseFeeCents: 12_000 }),
  ];
  const groups = [
    { sectionId: 1, count: 5, ...facts() },
    { sectionId: 1, count: 3, ...facts({ choseThemself: true }) },
    { sectionId: 1, count: 2, ...facts({ optStatus: 'opted_out', choseThemself: true }) },
    { sectionId: 2, count: 4, ...facts() },
    { sectionId: 3, count: 1, ...facts({ optStatus: 'opted_out' }) },
    { sectionId: 3, count: 6, ...facts({ beforeDeadline: false }) },
  ];
  const rows = sectionFigures(sections, groups, now);

  it('counts each standing and bills the opted-in, undecided included, at the section fee', () => {
    expect(rows[0]).toMatchObject({
      students: 10,
      optedIn: 3,
      optedOut: 2,
      undecided: 5,
      expectedBillingCents: 8 * 7900,
      daysToDeadline: 5,
    });
    // A section without a course fee bills nothing.
    expect(rows[1]).toMatchObject({ students: 4, undecided: 4, expectedBillingCents: 0 });
    expect(rows[2]).toMatchObject({ students: 7, optedIn: 6, optedOut: 1, undecided: 0 });
    expect(rows[2]?.expectedBillingCents).toBe(6 * 12_000);
  });

  it('a section with no students is listed with zeros', () => {
    const [empty] = sectionFigures([section({ id: 9 })], groups, now);
    expect(empty).toMatchObject({ students: 0, optedIn: 0, expectedBillingCents: 0 });
  });

  it('the parts sum to the students, and the totals to the sections', () => {
    for (const row of rows) {
      expect(row.optedIn + row.optedOut + row.undecided).toBe(row.students);
    }
    const total = totalFigures(rows);
    expect(total).toEqual({
      students: 21,
      optedIn: 9,
      optedOut: 3,
      undecided: 9,
      expectedBillingCents: 8 * 7900 + 6 * 12_000,
    });
  });

  it('Campus Insights groups the same figures by department', () => {
    const departments = departmentFigures(rows);
    expect(departments.map((d) => [d.department, d.sections, d.students])).toEqual([
      ['BIO', 2, 17],
      ['CHEM', 1, 4],
    ]);
    expect(totalFigures(departments)).toEqual(totalFigures(rows));
    expect(adoptionPercent(departments[0]!)).toBe(Math.round((14 * 100) / 17));
    expect(adoptionPercent(totalFigures([]))).toBeNull();
  });
});

describe('optOutSeries (issue 39: opt-outs over time, cumulative)', () => {
  it('runs the total of opt-outs less opt-backs-in, day by day in order', () => {
    expect(
      optOutSeries([
        { day: '2026-09-03', optOuts: 1, optIns: 2 },
        { day: '2026-09-01', optOuts: 3, optIns: 0 },
        { day: '2026-09-02', optOuts: 0, optIns: 0 },
      ]),
    ).toEqual([
      { day: '2026-09-01', optOuts: 3, optIns: 0, runningTotal: 3 },
      { day: '2026-09-02', optOuts: 0, optIns: 0, runningTotal: 3 },
      { day: '2026-09-03', optOuts: 1, optIns: 2, runningTotal: 2 },
    ]);
    expect(optOutSeries([])).toEqual([]);
  });
});

describe('defaultTerm (issue 39: the current term by default)', () => {
  const fall = { id: 1, title: 'Fall 2026', startDate: '2026-08-24', endDate: '2026-12-18' };
  const year = { id: 2, title: '2026-27', startDate: '2026-08-01', endDate: '2027-06-30' };
  const spring = { id: 3, title: 'Spring 2027', startDate: '2027-01-11', endDate: '2027-05-07' };
  const past = { id: 4, title: 'Spring 2026', startDate: '2026-01-12', endDate: '2026-05-08' };

  it('is the term running today, the shortest when terms nest', () => {
    expect(defaultTerm([year, fall, spring, past], '2026-09-10')).toBe(fall);
    expect(defaultTerm([year, fall, spring, past], '2026-12-18')).toBe(fall);
  });

  it('between terms, the next to start; after them all, the latest ended; none without terms', () => {
    expect(defaultTerm([fall, spring, past], '2026-12-24')).toBe(spring);
    expect(defaultTerm([fall, past], '2027-02-01')).toBe(fall);
    expect(defaultTerm([], '2026-09-10')).toBeNull();
  });
});
