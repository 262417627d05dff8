import type { Locale } from '#domain/accounts/language.ts';
import { isValidIsbn10 } from '#domain/catalog/isbn.ts';
import { dayIn } from '#domain/shared/calendar.ts';
import { materialsVisibleFrom } from '#domain/shelf/sections.ts';
import { isCalendarDate, isClockTime, isTimeZone, zonedInstant } from './course-time-zone.ts';

// Issue 39, Course Manager and Course Admin: "Terms, courses and sections … Create, edit, end —
// with the spec's rules enforced where they apply (deadlines in order, a fee only where the type
// has one), clear errors beside the field, nothing half-saved." The rules a term, a course and a
// section must meet, as pure functions of what was typed. Each refusal is a message id keyed by
// the form field it belongs beside. Course types: decision 036.

/** Every course type the database holds (spec 1 §1; `course_fee` is issue 39's). */
export const COURSE_TYPES = [
  'inclusive_access',
  'course_fee',
  'lms_ecommerce',
  'cds',
  'student_choice',
] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

/** Each type's one label wherever staff see it: Course Manager and the term dashboards' filter. */
export function courseTypeLabel(type: CourseType): `ops.courses.type.${CourseType}` {
  return `ops.courses.type.${type}`;
}

/**
 * The three types the issue names, as staff choose them: inclusive access, course fee, and
 * regular (LMS ecommerce: students buy, nothing is provisioned). The other two (a CDS
 * organisation's, a bookstore partner's student choice) stay on the courses that have them.
 */
export const CHOOSABLE_COURSE_TYPES = ['inclusive_access', 'course_fee', 'lms_ecommerce'] as const;

/** The types whose sections bill a course fee: all but regular (decision 036). */
export function courseTypeHasFee(type: CourseType): boolean {
  return type !== 'lms_ecommerce';
}

/** A regular course's sections provision nothing: students buy (spec 1 §1, LMS ecommerce). */
export function provisionsMaterials(type: CourseType): boolean {
  return type !== 'lms_ecommerce';
}

/** Students added to a course-fee course's section are on its one-fee program (spec 1 §1). */
export function joinsOnCourseFee(type: CourseType, role: MemberRole): boolean {
  return type === 'course_fee' && role === 'student';
}

/** Professors and teaching assistants teach the section; students study in it (spec 1 §6). */
export function teachesSection(role: string): boolean {
  return role === 'professor' || role === 'teaching_assistant';
}

/**
 * What a member's role decides on their row of the section, one rule whether staff add them in
 * that role or change them to it (issue 39): a student of a course-fee course is on its one-fee
 * program; a professor or teaching assistant never is — never billed, never opting (spec 1 §6:
 * opting is for students; billing charges students only).
 */
export function memberTerms(
  type: CourseType,
  role: MemberRole,
): { role: MemberRole; isCourseFee: boolean } {
  return { role, isCourseFee: joinsOnCourseFee(type, role) };
}

/**
 * A role change between studying and teaching changes what the section gives the member: a
 * student's reading through the course fee or inclusive access, an instructor's through
 * teaching. What the section gave under the old role then goes (what they bought stays), as
 * when the enrolment ends (membership.ts), and they take it up again under the new one. Between
 * professor and teaching assistant the section gives the same.
 */
export function roleChangeEndsGrants(from: string, to: MemberRole): boolean {
  return teachesSection(from) !== teachesSection(to);
}

export const TERM_TYPES = ['term', 'semester', 'schoolYear', 'gradingPeriod'] as const;
export type TermType = (typeof TERM_TYPES)[number];
export const OPTING_METHODS = ['opt-out', 'no-opt'] as const;
export type OptingMethod = (typeof OPTING_METHODS)[number];
export const MEMBER_ROLES = ['student', 'professor', 'teaching_assistant'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

/** A course fee above this is a typing mistake, not a price: 10,000.00 USD. */
export const MAX_FEE_CENTS = 1_000_000;
export const LIMITS = {
  title: 200,
  department: 20,
  courseNumber: 20,
  sectionNumber: 20,
  sectionCode: 40,
} as const;

export type FieldErrors<F extends string> = Partial<Record<F, string>>;
export type Checked<T, F extends string> =
  | { ok: true; value: T }
  | { ok: false; errors: FieldErrors<F> };

// Control characters (NUL and the like) are never part of a name or a code.
const CONTROL = /\p{Cc}/u;

/** A required line of text: trimmed, inner runs of spaces kept as typed, bounded. */
function text(raw: string, max: number): { value: string } | { error: string } {
  const value = raw.trim();
  if (CONTROL.test(value)) return { error: 'ops.courses.error.characters' };
  if (value === '') return { error: 'ops.courses.error.required' };
  if (value.length > max) return { error: 'ops.courses.error.tooLong' };
  return { value };
}

/** An optional line of text: blank is null. */
function optionalText(raw: string, max: number): { value: string | null } | { error: string } {
  if (raw.trim() === '') return { value: null };
  return text(raw, max);
}

// ── Terms ──

export type TermFields = 'title' | 'termType' | 'startDate' | 'endDate';
export type TermInput = Record<TermFields, string>;
export type TermValues = { title: string; termType: TermType; startDate: string; endDate: string };

/** Issue 39: a term has a title, a type, and a start on or before its end. */
export function checkTerm(input: TermInput): Checked<TermValues, TermFields> {
  const errors: FieldErrors<TermFields> = {};
  const title = text(input.title, LIMITS.title);
  if ('error' in title) errors.title = title.error;
  if (!(TERM_TYPES as readonly string[]).includes(input.termType)) {
    errors.termType = 'ops.courses.error.choice';
  }
  if (!isCalendarDate(input.startDate)) errors.startDate = 'ops.courses.error.date';
  if (!isCalendarDate(input.endDate)) errors.endDate = 'ops.courses.error.date';
  if (!errors.startDate && !errors.endDate && input.endDate < input.startDate) {
    errors.endDate = 'ops.courses.error.endBeforeStart';
  }
  if (Object.keys(errors).length > 0 || 'error' in title) return { ok: false, errors };
  return {
    ok: true,
    value: {
      title: title.value,
      termType: input.termType as TermType,
      startDate: input.startDate,
      endDate: input.endDate,
    },
  };
}

// ── Courses ──

export type CourseFields = 'name' | 'department' | 'number' | 'courseType';
export type CourseInput = Record<CourseFields, string>;
export type CourseValues = {
  name: string;
  department: string;
  number: string;
  courseType: CourseType;
};

/**
 * Issue 39: a course has a name, a department code and a number (spec 1 §3 course: name,
 * department, number) and a type. A new course takes one of the three choosable types; an
 * existing one may keep the type it has.
 */
export function checkCourse(
  input: CourseInput,
  currentType: CourseType | null = null,
): Checked<CourseValues, CourseFields> {
  const errors: FieldErrors<CourseFields> = {};
  const name = text(input.name, LIMITS.title);
  const department = text(input.department, LIMITS.department);
  const number = text(input.number, LIMITS.courseNumber);
  if ('error' in name) errors.name = name.error;
  if ('error' in department) errors.department = department.error;
  if ('error' in number) errors.number = number.error;
  const allowed: readonly string[] = currentType
    ? [...new Set([...CHOOSABLE_COURSE_TYPES, currentType])]
    : CHOOSABLE_COURSE_TYPES;
  if (!allowed.includes(input.courseType)) errors.courseType = 'ops.courses.error.choice';
  if ('error' in name || 'error' in department || 'error' in number || errors.courseType) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      name: name.value,
      // Department codes are upper case wherever courses are found by code (BIO 101).
      department: department.value.toUpperCase(),
      number: number.value,
      courseType: input.courseType as CourseType,
    },
  };
}

// ── Money ──

/**
 * A course fee typed as staff write prices, in English ('79.00', '79', '79.5', '1,250.00',
 * '$79') or in French ('79,00', '1 250,00', '79,00 $'), in integer cents, or the reason it is
 * not one. A comma before one or two final digits is the decimal comma; before three, it
 * groups thousands. At most two decimals, not negative, at most MAX_FEE_CENTS.
 */
export function parseFeeCents(raw: string): { cents: number } | { error: string } {
  const typed = frenchDecimals(
    raw
      .trim()
      .replace(/^\$\s*/, '')
      .replace(/\s*(?:\$\s*(?:US)?|US\s*\$)$/, ''),
  );
  if (typed === '') return { error: 'ops.courses.error.feeRequired' };
  if (typed.startsWith('-')) return { error: 'ops.courses.error.feeNegative' };
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(typed);
  if (!match) return { error: 'ops.courses.error.feeFormat' };
  const whole = match[1]!.replaceAll(',', '');
  if (whole.length > 9) return { error: 'ops.courses.error.feeTooHigh' };
  const cents = Number(whole) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (cents > MAX_FEE_CENTS) return { error: 'ops.courses.error.feeTooHigh' };
  return { cents };
}

/** '1 250,00' → '1250.00': French groups (spaces) and decimal comma, as the parser reads them. */
function frenchDecimals(typed: string): string {
  const ungrouped = /^\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:,\d{1,2})?$/.test(typed)
    ? typed.replace(/[ \u00a0\u202f]/g, '')
    : typed;
  return /^\d+,\d{1,2}$/.test(ungrouped) ? ungrouped.replace(',', '.') : ungrouped;
}

/**
 * Cents as the fee field shows them back, as the reader writes prices: 7900 → '79.00', or
 * '79,00' in French (the decimal comma the French hints show; parseFeeCents reads both).
 */
export function feeText(cents: number | null, locale: Locale = 'en'): string {
  if (cents === null) return '';
  const separator = locale === 'fr-CA' ? ',' : '.';
  return `${Math.floor(cents / 100)}${separator}${String(cents % 100).padStart(2, '0')}`;
}

// ── Sections ──

export type SectionFields =
  | 'name'
  | 'number'
  | 'termId'
  | 'startDate'
  | 'endDate'
  | 'timeZone'
  | 'optOutDate'
  | 'optOutTime'
  | 'dropDate'
  | 'dropTime'
  | 'optingMethod'
  | 'fee'
  | 'sectionCode';
export type SectionInput = Record<SectionFields, string>;

export type SectionValues = {
  name: string;
  number: string | null;
  startDate: string;
  endDate: string;
  timeZone: string;
  /** The opt-out deadline (spec 1 §3 addDropInCourseTimezone), a UTC instant. */
  addDropAt: Date;
  /** The end of the add/drop period, or null when it is the opt-out deadline. */
  dropPeriodEndsAt: Date | null;
  optingMethod: OptingMethod;
  courseFeeCents: number | null;
  sectionCode: string | null;
};

/** What the rules need of the section as it stands, when one is edited. */
export type SectionNow = {
  addDropAt: Date;
  dropPeriodEndsAt: Date | null;
  courseFeeCents: number | null;
  /** A billing run has charged this section's students (billing_charges). */
  billed: boolean;
};

/** The day an instant falls on in the zone, YYYY-MM-DD. */
function dayOf(instant: Date, timeZone: string): string {
  return dayIn(instant, timeZone);
}

/** A date and time typed on the course's clock, or the fields' errors. */
function deadline(
  date: string,
  time: string,
  timeZone: string | null,
  kept: Date | null,
): { at: Date } | { dateError?: string; timeError?: string } {
  const dateError = isCalendarDate(date) ? undefined : 'ops.courses.error.date';
  const timeError = isClockTime(time) ? undefined : 'ops.courses.error.time';
  if (dateError || timeError) return { dateError, timeError };
  if (timeZone === null) return {};
  const at = zonedInstant(date, time, timeZone);
  if (at === null) return { timeError: 'ops.courses.error.timeSkipped' };
  // The same minute as the instant on file keeps that instant (its seconds included), so
  // saving a form unchanged changes nothing.
  if (kept && Math.floor(kept.getTime() / 60_000) === Math.floor(at.getTime() / 60_000)) {
    return { at: kept };
  }
  return { at };
}

/**
 * The opt-out deadline as typed, or the one a regular course's section keeps without asking
 * (decision 036): nobody opts out of a regular course (students buy, optingEligibility), so its
 * form does not ask; the column still holds one, the deadline on file while it stays inside
 * the range every deadline keeps, else the end of the section's last day on its clock. A fee type
 * bills after it, so there a blank date says the deadline is required.
 */
function optOutDeadline(
  input: SectionInput,
  courseType: CourseType,
  zone: string | null,
  datesOk: boolean,
  current: SectionNow | null,
): { at: Date } | { dateError?: string; timeError?: string } {
  const blank = input.optOutDate.trim() === '' && input.optOutTime.trim() === '';
  if (!courseTypeHasFee(courseType) && blank) {
    if (zone === null || !datesOk) return {};
    const kept = current ? dayOf(current.addDropAt, zone) : null;
    if (current && kept && kept >= materialsVisibleFrom(input.startDate) && kept <= input.endDate) {
      return { at: current.addDropAt };
    }
    const at = zonedInstant(input.endDate, '23:59', zone);
    return at === null ? {} : { at };
  }
  if (input.optOutDate.trim() === '') {
    return {
      dateError: 'ops.courses.error.optOutRequired',
      timeError: isClockTime(input.optOutTime) ? undefined : 'ops.courses.error.time',
    };
  }
  return deadline(input.optOutDate, input.optOutTime, zone, current?.addDropAt ?? null);
}

/**
 * Issue 39, a section's rules (spec 1 §3 Section: name, number, startDate, endDate,
 * addDropInCourseTimezone, optingMethod; the course fee; the classroom section code):
 * - start on or before end;
 * - deadlines are a date and a time on the course's clock (an IANA time zone), kept as UTC;
 *   the opt-out deadline is required where the type bills a fee, and not asked of a regular
 *   course's section (optOutDeadline);
 * - the opt-out deadline falls from the day materials appear (two weeks before class, spec 1
 *   §2 course section page) to the section's last day;
 * - the add/drop period, if it ends apart from the opt-out deadline, ends at or after it and by
 *   the section's last day;
 * - a fee only where the course type has one, and there it is required (integer cents, ≥ 0,
 *   ≤ MAX_FEE_CENTS);
 * - once billing has charged the section (course-fee-billing.ts), the fee and the opt-out
 *   deadline its students were billed by no longer change;
 * - the section number and code are trimmed and bounded; the code is letters, digits, spaces
 *   and hyphens.
 */
export function checkSection(
  input: SectionInput,
  facts: { courseType: CourseType; now: Date; current: SectionNow | null },
): Checked<SectionValues, SectionFields> {
  const errors: FieldErrors<SectionFields> = {};
  const name = text(input.name, LIMITS.title);
  if ('error' in name) errors.name = name.error;
  const number = optionalText(input.number, LIMITS.sectionNumber);
  if ('error' in number) errors.number = number.error;

  if (!isCalendarDate(input.startDate)) errors.startDate = 'ops.courses.error.date';
  if (!isCalendarDate(input.endDate)) errors.endDate = 'ops.courses.error.date';
  const datesOk = !errors.startDate && !errors.endDate;
  if (datesOk && input.endDate < input.startDate) {
    errors.endDate = 'ops.courses.error.endBeforeStart';
  }
  const timeZone = input.timeZone.trim();
  const zoneOk = isTimeZone(timeZone);
  if (!zoneOk) errors.timeZone = 'ops.courses.error.timeZone';
  const zone = zoneOk ? timeZone : null;

  const current = facts.current;
  const optOut = optOutDeadline(input, facts.courseType, zone, datesOk, current);
  if (!('at' in optOut)) {
    if (optOut.dateError) errors.optOutDate = optOut.dateError;
    if (optOut.timeError) errors.optOutTime = optOut.timeError;
  }
  const dropTyped = input.dropDate.trim() !== '' || input.dropTime.trim() !== '';
  const drop = dropTyped
    ? deadline(input.dropDate, input.dropTime, zone, current?.dropPeriodEndsAt ?? null)
    : null;
  if (drop && !('at' in drop)) {
    if (drop.dateError) errors.dropDate = drop.dateError;
    if (drop.timeError) errors.dropTime = drop.timeError;
  }
  if (zone && 'at' in optOut && datesOk && !errors.endDate) {
    const day = dayOf(optOut.at, zone);
    if (day < materialsVisibleFrom(input.startDate)) {
      errors.optOutDate = 'ops.courses.error.optOutTooEarly';
    } else if (day > input.endDate) {
      errors.optOutDate = 'ops.courses.error.optOutAfterEnd';
    }
    if (drop && 'at' in drop) {
      if (drop.at.getTime() < optOut.at.getTime()) {
        errors.dropDate = 'ops.courses.error.dropBeforeOptOut';
      } else if (dayOf(drop.at, zone) > input.endDate) {
        errors.dropDate = 'ops.courses.error.dropAfterEnd';
      }
    }
  }

  if (!(OPTING_METHODS as readonly string[]).includes(input.optingMethod)) {
    errors.optingMethod = 'ops.courses.error.choice';
  }

  let courseFeeCents: number | null = null;
  if (courseTypeHasFee(facts.courseType)) {
    const fee = parseFeeCents(input.fee);
    if ('error' in fee) errors.fee = fee.error;
    else courseFeeCents = fee.cents;
  } else if (input.fee.trim() !== '') {
    errors.fee = 'ops.courses.error.feeNotForType';
  }

  // Once billing has charged the section, its fee and deadline are what the students were
  // billed by: they no longer change. Before that — even past the deadline, as a roster
  // import's default deadline may already be — staff can still put them right.
  if (current?.billed) {
    if (!errors.fee && courseFeeCents !== current.courseFeeCents) {
      errors.fee = 'ops.courses.error.feeLocked';
    }
    if (
      !errors.optOutDate &&
      'at' in optOut &&
      optOut.at.getTime() !== current.addDropAt.getTime()
    ) {
      errors.optOutDate = 'ops.courses.error.deadlineLocked';
    }
  }

  const code = optionalText(input.sectionCode, LIMITS.sectionCode);
  if ('error' in code) errors.sectionCode = code.error;
  else if (code.value !== null && !/^[\p{L}\p{N}][\p{L}\p{N} -]*$/u.test(code.value)) {
    errors.sectionCode = 'ops.courses.error.sectionCode';
  }
  if (Object.keys(errors).length > 0 || !('at' in optOut) || 'error' in name) {
    return { ok: false, errors };
  }
  return {
    ok: true,
    value: {
      name: name.value,
      number: 'error' in number ? null : number.value,
      startDate: input.startDate,
      endDate: input.endDate,
      timeZone,
      addDropAt: optOut.at,
      dropPeriodEndsAt: drop && 'at' in drop ? drop.at : null,
      optingMethod: input.optingMethod as OptingMethod,
      courseFeeCents,
      sectionCode: 'error' in code ? null : code.value,
    },
  };
}

// ── Materials ──

/**
 * What staff typed to name a material: an ISBN (13 digits, or 10 with a valid check digit,
 * hyphens and spaces allowed) or a product id. Null when it is neither.
 */
export function materialReference(
  raw: string,
): { kind: 'isbn'; value: string } | { kind: 'id'; id: number } | null {
  const typed = raw.replace(/[\s\u002d\u2010-\u2015]/g, '').toUpperCase();
  if (/^\d{13}$/.test(typed)) return { kind: 'isbn', value: typed };
  if (/^\d{9}[\dX]$/.test(typed) && isValidIsbn10(typed)) return { kind: 'isbn', value: typed };
  if (/^[1-9]\d{0,9}$/.test(typed) && Number(typed) <= 2_147_483_647) {
    return { kind: 'id', id: Number(typed) };
  }
  return null;
}
