import { describe, expect, it } from 'vitest';
import { deadlineDay as calendarDayIn } from '#domain/courses/opting.ts';
import {
  courseCodeParts,
  defaultOptOutDeadline,
  endOfDayIn,
  enrolmentPhase,
  memberRoleOf,
  scopedRosterId,
  sectionTermOf,
} from './roster-mapping.ts';

// Issue 39 (decision 035): how OneRoster records become ours.

describe('issue 39: enrolment roles', () => {
  it('maps the student, the teacher of record, co-teachers and aides; ignores the rest', () => {
    expect(memberRoleOf('student', false)).toBe('student');
    expect(memberRoleOf('teacher', true)).toBe('professor');
    expect(memberRoleOf('teacher', false)).toBe('teaching_assistant');
    expect(memberRoleOf('aide', false)).toBe('teaching_assistant');
    expect(memberRoleOf('proctor', true)).toBeNull();
    expect(memberRoleOf('guardian', false)).toBeNull();
  });
});

describe('issue 39: a class with several terms', () => {
  it('runs from the first start to the last end, in the term that covers it', () => {
    expect(
      sectionTermOf([
        { id: 'q1', startDate: '2027-01-11', endDate: '2027-03-05' },
        { id: 'sem', startDate: '2027-01-11', endDate: '2027-05-14' },
      ]),
    ).toEqual({ termId: 'sem', startDate: '2027-01-11', endDate: '2027-05-14' });
  });
  it('else in the term that starts first', () => {
    expect(
      sectionTermOf([
        { id: 'spring', startDate: '2027-01-11', endDate: '2027-05-14' },
        { id: 'fall', startDate: '2026-08-24', endDate: '2026-12-18' },
      ]),
    ).toEqual({ termId: 'fall', startDate: '2026-08-24', endDate: '2027-05-14' });
  });
});

describe('issue 39: course codes and defaults', () => {
  it('splits a course code into department and number', () => {
    expect(courseCodeParts('BIO 101', 'x')).toEqual({ department: 'BIO', number: '101' });
    expect(courseCodeParts('CHM-210', 'x')).toEqual({ department: 'CHM', number: '210' });
    expect(courseCodeParts('JPN300', 'x')).toEqual({ department: 'JPN', number: '300' });
    expect(courseCodeParts('4711', 'x')).toEqual({ department: '', number: '4711' });
    expect(courseCodeParts(null, 'Biology')).toEqual({ department: '', number: 'Biology' });
    expect(courseCodeParts('ÉCO-1001', 'x')).toEqual({ department: 'ÉCO', number: '1001' });
    expect(courseCodeParts('化学 101', 'x')).toEqual({ department: '化学', number: '101' });
  });
  it('ends a day in the course time zone, summer or winter', () => {
    expect(endOfDayIn('2027-01-25', 'America/New_York').toISOString()).toBe(
      '2027-01-26T04:59:59.000Z',
    );
    expect(endOfDayIn('2027-07-01', 'America/Vancouver').toISOString()).toBe(
      '2027-07-02T06:59:59.000Z',
    );
  });
  const spring = { startDate: '2027-01-11', endDate: '2027-05-14' };
  it('sets a new section’s opt-out deadline two weeks after it starts', () => {
    const before = new Date('2026-12-06T15:00:00Z');
    expect(defaultOptOutDeadline(spring, 'America/New_York', before)).toEqual({
      at: new Date('2027-01-26T04:59:59.000Z'),
      day: '2027-01-25',
      kind: 'default',
    });
  });
  it('spec 1 §4 + decision 035: never creates a deadline already past; two weeks from the import instead', () => {
    // The term began weeks ago: its students still get two weeks to opt out.
    const now = new Date('2027-02-20T15:00:00Z');
    const moved = defaultOptOutDeadline(spring, 'America/New_York', now);
    expect(moved).toEqual({
      at: new Date('2027-03-07T04:59:59.000Z'),
      day: '2027-03-06',
      kind: 'moved',
    });
    expect(moved.at.getTime()).toBeGreaterThan(now.getTime());
    // The deadline falls by the section's last day (section-rules.ts).
    const late = defaultOptOutDeadline(
      spring,
      'America/New_York',
      new Date('2027-05-08T15:00:00Z'),
    );
    expect(late).toMatchObject({ day: '2027-05-14', kind: 'moved' });
    // A section already over keeps its last day, a deadline past, and says so.
    const over = defaultOptOutDeadline(
      spring,
      'America/New_York',
      new Date('2027-06-01T12:00:00Z'),
    );
    expect(over).toEqual({
      at: new Date('2027-05-15T03:59:59.000Z'),
      day: '2027-05-14',
      kind: 'past',
    });
  });
  it('never sets the default after a short section’s last day', () => {
    const intensive = { startDate: '2027-01-11', endDate: '2027-01-15' };
    expect(
      defaultOptOutDeadline(intensive, 'America/New_York', new Date('2027-01-01T00:00:00Z')),
    ).toMatchObject({ day: '2027-01-15', kind: 'default' });
  });
  it('keys a campus id by its organisation, so equal ids of two campuses never meet', () => {
    expect(scopedRosterId(3, 'enr-1')).not.toBe(scopedRosterId(4, 'enr-1'));
  });
});

describe('issue 39: an enrolment’s dates (OneRoster 1.2: beginDate inclusive, endDate exclusive)', () => {
  const period = { beginDate: '2027-01-11', endDate: '2027-05-15' };
  it('has ended from its endDate on: no longer active, like tobedeleted', () => {
    expect(enrolmentPhase(period, '2027-05-14')).toBe('current');
    expect(enrolmentPhase(period, '2027-05-15')).toBe('ended');
    expect(enrolmentPhase(period, '2027-08-01')).toBe('ended');
    expect(enrolmentPhase({ beginDate: null, endDate: '2027-05-15' }, '2027-05-15')).toBe('ended');
  });
  it('is upcoming before its beginDate (a member all the same), current from it', () => {
    expect(enrolmentPhase(period, '2027-01-10')).toBe('upcoming');
    expect(enrolmentPhase(period, '2027-01-11')).toBe('current');
  });
  it('is current when its dates are blank', () => {
    expect(enrolmentPhase({ beginDate: null, endDate: null }, '2099-01-01')).toBe('current');
  });
  it('counts the day in the campus’s time zone', () => {
    // 03:30 UTC on 15 May is still 14 May in New York, already 15 May in Paris.
    const at = new Date('2027-05-15T03:30:00Z');
    expect(calendarDayIn(at, 'America/New_York')).toBe('2027-05-14');
    expect(calendarDayIn(at, 'Europe/Paris')).toBe('2027-05-15');
    expect(enrolmentPhase(period, calendarDayIn(at, 'America/New_York'))).toBe('current');
    expect(enrolmentPhase(period, calendarDayIn(at, 'Europe/Paris'))).toBe('ended');
  });
});
