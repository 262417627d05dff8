import { describe, expect, it } from 'vitest';
import { isCalendarDate, isTimeZone, zonedDateTime, zonedInstant } from './course-time-zone.ts';

// Issue 39: "add/drop and opt-out deadlines in the course's time zone" — typed as the course's
// clock reads, stored as UTC, shown back as typed.
describe('issue 39: deadlines on the course clock', () => {
  it('issue 39: a date and time in a zone is the UTC instant of that wall clock, summer and winter', () => {
    expect(zonedInstant('2026-09-08', '23:59', 'America/Toronto')).toEqual(
      new Date('2026-09-09T03:59:00Z'),
    );
    expect(zonedInstant('2026-12-01', '23:59', 'America/Toronto')).toEqual(
      new Date('2026-12-02T04:59:00Z'),
    );
    expect(zonedInstant('2026-09-08', '09:30', 'Asia/Kolkata')).toEqual(
      new Date('2026-09-08T04:00:00Z'),
    );
    expect(zonedInstant('2026-09-08', '12:00', 'UTC')).toEqual(new Date('2026-09-08T12:00:00Z'));
  });

  it('issue 39: a time the clocks skip names no instant; a time they repeat is its first', () => {
    expect(zonedInstant('2027-03-14', '02:30', 'America/Toronto')).toBeNull();
    expect(zonedInstant('2026-11-01', '01:30', 'America/Toronto')).toEqual(
      new Date('2026-11-01T05:30:00Z'),
    );
  });

  it('issue 39: shown back in the zone, an instant reads as it was typed', () => {
    for (const [date, time, zone] of [
      ['2026-09-08', '23:59', 'America/Vancouver'],
      ['2027-01-15', '00:00', 'Europe/Paris'],
      ['2026-11-01', '01:30', 'America/New_York'],
    ] as const) {
      expect(zonedDateTime(zonedInstant(date, time, zone)!, zone)).toEqual({ date, time });
    }
  });

  it('issue 39: impossible dates and unknown zones are refused', () => {
    expect(isCalendarDate('2026-02-29')).toBe(false);
    expect(isCalendarDate('2028-02-29')).toBe(true);
    expect(isCalendarDate('26-2-1')).toBe(false);
    expect(isTimeZone('America/Toronto')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
    expect(zonedInstant('2026-09-08', '23:59', 'Nowhere/City')).toBeNull();
  });
});
