import { describe, expect, it } from 'vitest';
import { endedByStaff, runningStatus, todayOn } from './running-status.ts';

// Issue 39: "Terms (academic sessions), courses and sections: … Create, edit, end". A term or
// a section shows Ended once ended, or once its last day is over; a section ends with its term.
const today = '2026-12-16';
const open = { endedAt: null, endDate: '2026-12-20' };
const past = { endedAt: null, endDate: '2026-12-15' };
const ended = { endedAt: new Date('2026-10-01T12:00:00Z'), endDate: '2026-12-20' };

describe('issue 39: running or ended', () => {
  it('issue 39: a term or section runs through its last day, and has ended the day after', () => {
    expect(runningStatus(open, null, today)).toBe('running');
    expect(runningStatus({ endedAt: null, endDate: today }, null, today)).toBe('running');
    expect(runningStatus(past, null, today)).toBe('ended');
  });

  it('issue 39: ended by staff is ended, whatever its dates say', () => {
    expect(runningStatus(ended, null, today)).toBe('ended');
    expect(runningStatus({ ...ended, endedAt: '2026-10-01T12:00:00.000Z' }, null, today)).toBe(
      'ended',
    );
  });

  it('issue 39: a section ends with its term: the term ended, or past its last day', () => {
    expect(runningStatus(open, open, today)).toBe('running');
    expect(runningStatus(open, ended, today)).toBe('ended');
    expect(runningStatus(open, past, today)).toBe('ended');
  });

  it('issue 39: only an end by staff (the section’s or its term’s) closes it to changes; a past last day does not', () => {
    expect(endedByStaff(past, null)).toBe(false);
    expect(endedByStaff(ended, null)).toBe(true);
    expect(endedByStaff(open, ended)).toBe(true);
    expect(endedByStaff(open, past)).toBe(false);
  });

  it('issue 39: today is read on the clock given; an unknown zone reads as UTC', () => {
    const lateEvening = new Date('2026-12-16T03:30:00Z');
    expect(todayOn(lateEvening, 'America/Vancouver')).toBe('2026-12-15');
    expect(todayOn(lateEvening, 'UTC')).toBe('2026-12-16');
    expect(todayOn(lateEvening, 'Mars/Olympus')).toBe('2026-12-16');
  });
});
