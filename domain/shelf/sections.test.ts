import { describe, expect, it } from 'vitest';
import {
  dayIn,
  materialsVisibleFrom,
  sectionsFor,
  sectionTerm,
  sectionTitle,
  selectableSections,
  termFilterOf,
} from './sections.ts';

const today = '2026-11-23';
const past = { id: 'past', startDate: '2026-01-10', endDate: '2026-05-10' };
const current = { id: 'current', startDate: '2026-08-25', endDate: '2026-12-15' };
const endsToday = { id: 'endsToday', startDate: '2026-09-01', endDate: today };
const upcoming = { id: 'upcoming', startDate: '2027-01-12', endDate: '2027-05-01' };
const all = [upcoming, past, current, endsToday];

describe('section ordering (spec 1 §4, spec 2 §2)', () => {
  it('started and not ended is current; a section ending today is still current', () => {
    expect(sectionTerm(current, today)).toBe('current');
    expect(sectionTerm(endsToday, today)).toBe('current');
    expect(sectionTerm(past, today)).toBe('past');
    expect(sectionTerm(upcoming, today)).toBe('upcoming');
  });

  it('Current: current, then future ones; Past: ended; All: current, upcoming, then past', () => {
    expect(sectionsFor(all, 'current', today).map((s) => s.id)).toEqual([
      'current',
      'endsToday',
      'upcoming',
    ]);
    expect(sectionsFor(all, 'past', today).map((s) => s.id)).toEqual(['past']);
    expect(sectionsFor(all, 'all', today).map((s) => s.id)).toEqual([
      'current',
      'endsToday',
      'upcoming',
      'past',
    ]);
  });

  it('the default term filter is Current; anything unknown reads as the default', () => {
    expect(termFilterOf(null)).toBe('current');
    expect(termFilterOf('past')).toBe('past');
    expect(termFilterOf('PAST')).toBe('current');
  });

  it('only sections ending today or later are offered for course selection (spec 1 §2)', () => {
    expect(selectableSections(all, today).map((s) => s.id)).toEqual([
      'upcoming',
      'current',
      'endsToday',
    ]);
  });
});

describe('course section title and dates (spec 1 §2 Page titles, spec 2 §9)', () => {
  it('department and number, with the section number when there is one', () => {
    expect(sectionTitle({ department: 'BIO', courseNumber: '101', sectionNumber: '001' })).toEqual({
      course: 'BIO 101',
      section: '001',
    });
    expect(
      sectionTitle({ department: 'BIO', courseNumber: '101', sectionNumber: ' ' }).section,
    ).toBe(null);
    // Issue 39: a course a roster made shows the campus's code as it was written.
    expect(
      sectionTitle({
        department: 'CHM',
        courseNumber: '210',
        courseCode: 'CHM-210',
        sectionNumber: '01',
      }).course,
    ).toBe('CHM-210');
  });

  it('materials appear two weeks (1,209,600,000 ms) before class starts', () => {
    expect(materialsVisibleFrom('2027-01-12')).toBe('2026-12-29');
  });

  it("today is the user's calendar day", () => {
    const now = new Date('2026-11-24T03:00:00Z');
    expect(dayIn(now, 'UTC')).toBe('2026-11-24');
    expect(dayIn(now, 'America/New_York')).toBe('2026-11-23');
  });
});
