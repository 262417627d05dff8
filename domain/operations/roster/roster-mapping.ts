import { createHash } from 'node:crypto';
import { dayIn, wallClockMs } from '#domain/shared/calendar.ts';
import type { OneRosterRole } from './roster-rows.ts';

// How OneRoster records become ours (decision 035). Pure rules, each tested.

export type MemberRole = 'student' | 'professor' | 'teaching_assistant';

/**
 * An enrolment's role in the section: a student is a student; the teacher of record (primary)
 * is the professor; a co-teacher (primary false or blank, the binding's default) and an aide
 * are teaching assistants. Any other role (administrators, guardians, proctors…) is not a
 * member of a course section: null, and the report says the row was ignored.
 */
export function memberRoleOf(role: OneRosterRole, primary: boolean): MemberRole | null {
  if (role === 'student') return 'student';
  if (role === 'teacher') return primary ? 'professor' : 'teaching_assistant';
  if (role === 'aide') return 'teaching_assistant';
  return null;
}

/** Roles (roles.csv) of people the store serves: they get an account. */
export function isServedRole(role: OneRosterRole): boolean {
  return role === 'student' || role === 'teacher' || role === 'aide';
}

export type TermSpan = { id: string; startDate: string; endDate: string };

/**
 * A class with several terms (a full-year class in two semesters, a semester class listed with
 * its grading periods): the section runs from the first term's start to the last one's end,
 * and belongs to the listed term that covers that whole span, else to the one that starts
 * first (ties: the one listed first).
 */
export function sectionTermOf(terms: readonly TermSpan[]): {
  termId: string;
  startDate: string;
  endDate: string;
} {
  const startDate = terms.map((t) => t.startDate).reduce((a, b) => (b < a ? b : a));
  const endDate = terms.map((t) => t.endDate).reduce((a, b) => (b > a ? b : a));
  const covering = terms.find((t) => t.startDate === startDate && t.endDate === endDate);
  const first = terms.find((t) => t.startDate === startDate)!;
  return { termId: (covering ?? first).id, startDate, endDate };
}

/**
 * A course's department and number from its courseCode: 'BIO 101', 'BIO-101' and 'BIO101'
 * are department BIO, number 101. A code that is not letters then the rest is the number
 * alone; no code at all, the course's title is its number (staff correct it in Course Manager).
 */
export function courseCodeParts(
  courseCode: string | null,
  title: string,
): { department: string; number: string } {
  const code = (courseCode ?? '').trim();
  const match = /^(\p{L}[\p{L}&]*)[\s-]*(\S.*)$/u.exec(code);
  if (match) return { department: match[1]!, number: match[2]! };
  return { department: '', number: (code || title).slice(0, 100) };
}

/** What decides "unchanged": a digest of what we make of the record. */
export function recordDigest(values: unknown): string {
  return createHash('sha256').update(JSON.stringify(values)).digest('base64url');
}

/** The instant a calendar day ends (23:59:59) in a time zone. */
export function endOfDayIn(day: string, timeZone: string): Date {
  const guess = new Date(`${day}T23:59:59Z`);
  const shown = wallClockMs(guess, timeZone);
  return new Date(guess.getTime() - (shown - guess.getTime()));
}

/** The time zone of a new section when its course has no section to copy. */
export const DEFAULT_SECTION_TIME_ZONE = 'America/New_York';

export type EnrolmentPeriod = { beginDate: string | null; endDate: string | null };

/**
 * Where an enrolment stands on a campus's calendar day (OneRoster 1.2: beginDate inclusive,
 * endDate exclusive). 'ended' once its endDate has come: no longer active, it ends the
 * membership as `tobedeleted` does (what the section gave goes, purchases stay). 'upcoming'
 * before its beginDate: a member all the same, since students need their materials before
 * the first class (decision 035). 'current' otherwise, and when the dates are blank.
 */
export function enrolmentPhase(
  period: EnrolmentPeriod,
  today: string,
): 'upcoming' | 'current' | 'ended' {
  if (period.endDate !== null && today >= period.endDate) return 'ended';
  if (period.beginDate !== null && today < period.beginDate) return 'upcoming';
  return 'current';
}

/** A new section's opt-out deadline: two weeks in (decision 035; the spec sets no default). */
export const DEFAULT_OPT_OUT_DAYS = 14;

const addDays = (day: string, days: number) =>
  new Date(new Date(`${day}T00:00:00Z`).getTime() + days * 86_400_000).toISOString().slice(0, 10);

/**
 * How the default was reached: 'default', two weeks into the section; 'moved', that day had
 * already gone, so the students get two weeks from the import instead; 'past', the section's
 * last day itself has gone. The report says 'moved' and 'past' (decision 035).
 */
export type OptOutDefault = { at: Date; day: string; kind: 'default' | 'moved' | 'past' };

/**
 * The opt-out deadline a section the import creates takes: 23:59:59, in the section's time
 * zone, of its fourteenth day, never after its last day (section-rules.ts: the deadline falls
 * by the section's last day). Opting is possible only before the deadline (spec 1 §4, spec 2
 * §4 Opting), and billing starts after it (decision 037), so a default already past when it is
 * created would bill its students without the two weeks to opt out: it moves to the fourteenth
 * day from the import's own day, still never after the last day. A section already over keeps
 * its last day, a deadline in the past, and is reported.
 */
export function defaultOptOutDeadline(
  section: { startDate: string; endDate: string },
  timeZone: string,
  now: Date,
): OptOutDefault {
  const byEnd = (day: string) => (day > section.endDate ? section.endDate : day);
  const day = byEnd(addDays(section.startDate, DEFAULT_OPT_OUT_DAYS));
  const at = endOfDayIn(day, timeZone);
  if (at.getTime() > now.getTime()) return { at, day, kind: 'default' };
  const moved = byEnd(addDays(dayIn(now, timeZone), DEFAULT_OPT_OUT_DAYS));
  const movedAt = endOfDayIn(moved, timeZone);
  return {
    at: movedAt,
    day: moved,
    kind: movedAt.getTime() > now.getTime() ? 'moved' : 'past',
  };
}

/** The key our rows carry for a campus's id, so two campuses' equal ids never collide. */
export function scopedRosterId(orgId: number, sourcedId: string): string {
  return `oneroster:${orgId}:${sourcedId}`;
}
