// Issue 39: a section's deadlines are entered as a date and a time on the course's clock (its
// IANA time zone) and kept as UTC instants; the opting banner shows them back in that zone
// (opting.ts, deadlineText). This file turns one into the other, both ways.

import { wallClockMs as zoneClockMs } from '#domain/shared/calendar.ts';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** A calendar date YYYY-MM-DD that exists (no 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (y < 1900 || y > 2999) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** A time of day HH:MM, 24-hour clock. */
export function isClockTime(text: string): boolean {
  return TIME.test(text);
}

/** An IANA time zone this server knows ('America/Toronto'); not an offset or an abbreviation. */
export function isTimeZone(text: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{1,63}$/.test(text)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: text });
    return true;
  } catch {
    return false;
  }
}

/** The zone's wall clock at this instant, as if it were UTC (milliseconds). */
function wallClockMs(instant: number, timeZone: string): number {
  return zoneClockMs(new Date(instant), timeZone);
}

/**
 * The instant a date and time on the zone's clock names. A time the clocks skip (the spring
 * change: 02:30 does not happen in New York that night) names no instant: null. A time that
 * happens twice (the autumn change) is its first occurrence, the earlier instant.
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date | null {
  if (!isCalendarDate(date) || !isClockTime(time) || !isTimeZone(timeZone)) return null;
  const wall = Date.parse(`${date}T${time}:00Z`);
  // Offsets a few hours either side cover every zone's change; try each candidate instant.
  const candidates = new Set<number>();
  for (const probe of [wall - 86_400_000, wall, wall + 86_400_000]) {
    candidates.add(wall - (wallClockMs(probe, timeZone) - probe));
  }
  const matches = [...candidates].filter((c) => wallClockMs(c, timeZone) === wall);
  if (matches.length === 0) return null;
  return new Date(Math.min(...matches));
}

/** The date and time on the zone's clock at this instant, as a form shows it back. */
export function zonedDateTime(instant: Date, timeZone: string): { date: string; time: string } {
  const iso = new Date(wallClockMs(instant.getTime(), timeZone)).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}
