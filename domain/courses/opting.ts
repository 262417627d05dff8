import type { Locale } from '#domain/accounts/language.ts';
import { dayIn } from '#domain/shared/calendar.ts';

// Opting in and out of a section's inclusive-access program (spec 1 §4 Opting, §5, §6;
// spec 2 §4 Opting, §9). Plain rules of plain data: the service loads, these decide.

export const OPT_STATUSES = ['opted_in', 'opted_out'] as const;
export type OptStatus = (typeof OPT_STATUSES)[number];

/** One day, the unit of "days left" (spec 2 §9). */
export const DAY_MS = 86_400_000;

export type OptingMember = {
  role: string;
  optStatus: OptStatus;
  canUpdateOptStatus: boolean;
  /** The member's add/drop date: the opting deadline (spec 2 §4). */
  addDropDate: Date;
};

export type OptingSection = {
  optingMethod: string;
  disableAutoProvisioning: boolean;
};

export type OptingOrg = {
  isCdsEnabled: boolean;
  isBookstorePartner: boolean;
};

export function isOptStatus(value: string): value is OptStatus {
  return (OPT_STATUSES as readonly string[]).includes(value);
}

/**
 * Students may opt only if auto-provisioning is not disabled, the opting method is not
 * no-opt and canUpdateOptStatus holds (spec 1 §5, spec 2 §4; spec 1 §6: students only).
 */
export function optingEligibility(member: OptingMember, section: OptingSection): boolean {
  return (
    member.role === 'student' &&
    !section.disableAutoProvisioning &&
    section.optingMethod !== 'no-opt' &&
    member.canUpdateOptStatus
  );
}

/** Days left = floor((deadline − now) / 86,400,000 ms) (spec 1 §4, spec 2 §9). */
export function daysLeft(deadline: Date, now: Date): number {
  return Math.floor((deadline.getTime() - now.getTime()) / DAY_MS);
}

/** Opting is allowed only before the deadline, not at or after it (spec 2 §4). */
export function isBeforeDeadline(deadline: Date, now: Date): boolean {
  return now.getTime() < deadline.getTime();
}

/** The deadline as the banner shows it, YYYY-MM-DD, in the course's time zone (spec 1 §4). */
export function deadlineDay(deadline: Date, timeZone: string): string {
  return dayIn(deadline, timeZone);
}

/**
 * The deadline's date and time with its time zone, in the course's time zone, as the student
 * decides by it (issue 19; spec 1 §3 addDropInCourseTimezone): 'Sep 15, 2026, 11:59 PM EDT',
 * '15 sept. 2026, 23 h 59 HAE'. Formatted once on the server, so the page never re-words it.
 */
export function deadlineText(deadline: Date, timeZone: string, locale: Locale): string {
  return new Intl.DateTimeFormat(locale, {
    timeZone,
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
  }).format(deadline);
}

/** The opting lifecycle: each status has one move, to the other (spec 2 §4). */
export const OPT_MOVES: Readonly<Record<OptStatus, OptStatus>> = {
  opted_in: 'opted_out',
  opted_out: 'opted_in',
};

/**
 * Why a move is refused, as a message key. `forbidden`: this member may never opt here;
 * `closed`: the deadline has passed; `unchanged`: the member already has that status.
 */
export type OptRefusal =
  | { kind: 'forbidden'; messageKey: 'opting.error.notAllowed' | 'opting.error.partner' }
  | { kind: 'closed'; messageKey: 'opting.error.deadline' }
  | { kind: 'unchanged'; messageKey: 'opting.error.unchanged' };

/** The guard of a move to `to`: null when allowed, else the reason. */
export function optMoveRefusal(input: {
  member: OptingMember;
  section: OptingSection;
  org: OptingOrg;
  to: OptStatus;
  now: Date;
}): OptRefusal | null {
  const { member, section, org, to, now } = input;
  // The custom bookstore-partner organisation sees a panel instead of opting (spec 1 §4).
  if (org.isBookstorePartner) return { kind: 'forbidden', messageKey: 'opting.error.partner' };
  if (!optingEligibility(member, section)) {
    return { kind: 'forbidden', messageKey: 'opting.error.notAllowed' };
  }
  if (OPT_MOVES[member.optStatus] !== to) {
    return { kind: 'unchanged', messageKey: 'opting.error.unchanged' };
  }
  if (!isBeforeDeadline(member.addDropDate, now)) {
    return { kind: 'closed', messageKey: 'opting.error.deadline' };
  }
  return null;
}

/**
 * Courtesy access applies when cdsEnabled is off, auto-provisioning is not disabled and the
 * member is not opted out (spec 1 §5, spec 2 §4).
 */
export function courtesyAccess(input: {
  isCdsEnabled: boolean;
  disableAutoProvisioning: boolean;
  optStatus: OptStatus;
}): boolean {
  return !input.isCdsEnabled && !input.disableAutoProvisioning && input.optStatus !== 'opted_out';
}

/** Offerings show when cdsEnabled or auto-provisioning is disabled (spec 1 §5, spec 2 §4). */
export function offeringsShow(input: {
  isCdsEnabled: boolean;
  disableAutoProvisioning: boolean;
}): boolean {
  return input.isCdsEnabled || input.disableAutoProvisioning;
}

/**
 * The inclusive-access ecommerce channel is open only to non-partner organisations, for
 * opted-out students after the opting deadline (spec 1 §5): they buy what they opted out of.
 */
export function ecommerceChannelOpen(input: {
  isBookstorePartner: boolean;
  role: string;
  optStatus: OptStatus;
  addDropDate: Date;
  now: Date;
}): boolean {
  return (
    !input.isBookstorePartner &&
    input.role === 'student' &&
    input.optStatus === 'opted_out' &&
    !isBeforeDeadline(input.addDropDate, input.now)
  );
}

/**
 * A course fee covers the member's materials only while they are in the program: an
 * opted-out student is blocked from reading through it (spec 1 §6).
 */
export function courseFeeApplies(input: { isCourseFee: boolean; optStatus: OptStatus }): boolean {
  return input.isCourseFee && input.optStatus !== 'opted_out';
}
