import { dayIn } from '#domain/shared/calendar.ts';
import { isTimeZone } from './course-time-zone.ts';

// Issue 39, Course Manager: "Terms (academic sessions), courses and sections: … Create, edit,
// end". Whether a term or a section is still running, one rule for every list and page that
// says so (the terms list, a term's and a course's sections, a section's page) and for what a
// course type change touches (course-type-change.ts).

export type RunningStatus = 'running' | 'ended';

/** A term or a section: ended by staff (or the roster) when, and its last calendar day. */
export type Span = { endedAt: Date | string | null; endDate: string };

/** Today on this clock, YYYY-MM-DD; an unknown zone reads as UTC. */
export function todayOn(now: Date, timeZone: string): string {
  return dayIn(now, isTimeZone(timeZone) ? timeZone : 'UTC');
}

/**
 * A term or section has ended once staff ended it, or once its last day is over on the clock
 * it is read on (a section's own time zone; a term, which has none, the reader's). A section
 * also ends with its term: pass the term it runs in, if any, as `within`.
 */
export function runningStatus(span: Span, within: Span | null, today: string): RunningStatus {
  const over = (s: Span) => s.endedAt !== null || s.endDate < today;
  return over(span) || (within !== null && over(within)) ? 'ended' : 'running';
}

/**
 * Ended by a person — the section itself or the term it runs in — rather than by the calendar:
 * then nothing on it changes any more. A section whose last day has passed can still be put
 * right (its dates corrected) or ended.
 */
export function endedByStaff(span: Span, within: Span | null): boolean {
  return span.endedAt !== null || (within !== null && within.endedAt !== null);
}

/** The label each status shows in English and French. */
export function runningStatusLabel(status: RunningStatus): `ops.courses.${RunningStatus}` {
  return `ops.courses.${status}`;
}
