import type { FileMode } from './manifest.ts';
import {
  ONEROSTER_ROLES,
  ROSTER_VALUES,
  type RosterFile,
  SESSION_TYPES,
} from './oneroster-tables.ts';

// One row of a OneRoster 1.2 CSV file read into a record, or refused alone with its reason
// (decision 035). Values are kept byte for byte: ids and names are opaque UTF-8 text.

export type RowStatus = 'active' | 'tobedeleted';

type Base = { line: number; sourcedId: string; status: RowStatus };

export type OrgRow = Base & { name: string };
export type SessionRow = Base & {
  title: string;
  type: (typeof SESSION_TYPES)[number];
  startDate: string;
  endDate: string;
  parentSourcedId: string | null;
};
export type CourseRow = Base & { title: string; courseCode: string | null; orgSourcedId: string };
export type ClassRow = Base & {
  title: string;
  classCode: string | null;
  courseSourcedId: string;
  schoolSourcedId: string;
  termSourcedIds: string[];
};
export type UserRow = Base & {
  givenName: string;
  familyName: string;
  email: string | null;
  identifier: string | null;
};
export type RoleRow = Base & {
  userSourcedId: string;
  roleType: 'primary' | 'secondary';
  role: OneRosterRole;
  orgSourcedId: string;
};
export type EnrollmentRow = Base & {
  classSourcedId: string;
  schoolSourcedId: string;
  userSourcedId: string;
  role: OneRosterRole;
  primary: boolean;
  /** The first day of the enrolment (inclusive); null: since the class began. */
  beginDate: string | null;
  /** The day the enrolment is over (exclusive, as the binding says); null: with the class. */
  endDate: string | null;
};

export type OneRosterRole = (typeof ONEROSTER_ROLES)[number];

export type RowOf = {
  orgs: OrgRow;
  academicSessions: SessionRow;
  courses: CourseRow;
  classes: ClassRow;
  users: UserRow;
  roles: RoleRow;
  enrollments: EnrollmentRow;
};

export type RowRefusal = { reason: string; values?: Record<string, string | number> };

export type RowReading<F extends RosterFile> =
  | { ok: true; row: RowOf[F] }
  | ({ ok: false } & RowRefusal);

/** The longest value a field may hold; longer is not a roster, it is a mistake or an attack. */
export const MAX_FIELD = 1000;
/** The longest sourcedId kept (ids are opaque, but not essays). */
export const MAX_SOURCED_ID = 255;
/**
 * The longest title (sessions, courses, classes) and given or family name kept. Longer is
 * refused, not cut: names round-trip byte for byte (issue 39).
 */
export const MAX_TITLE = 300;
export const MAX_NAME = 200;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
const EMAIL = /^[^@\s]+@[^@\s]+$/;

/** A calendar day written YYYY-MM-DD that exists. */
export function isCalendarDate(value: string): boolean {
  const match = DATE.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const day = new Date(Date.UTC(y, m - 1, d));
  return day.getUTCFullYear() === y && day.getUTCMonth() === m - 1 && day.getUTCDate() === d;
}

function isDateTime(value: string): boolean {
  return (
    DATE_TIME.test(value) && isCalendarDate(value.slice(0, 10)) && !Number.isNaN(Date.parse(value))
  );
}

const refuse = (reason: string, values?: Record<string, string | number>) =>
  ({ ok: false, reason, ...(values ? { values } : {}) }) as const;

/**
 * Reads one row (a map of header → value) of `file` in the manifest's `mode`. A bad row is
 * refused alone: a blank required value, a bad date, an unknown enumeration token, a delta row
 * without status or dateLastModified, text with NUL bytes or over the length cap.
 */
export function readRosterRow<F extends RosterFile>(
  file: F,
  mode: FileMode,
  fields: Readonly<Record<string, string>>,
  line: number,
): RowReading<F> {
  for (const [column, value] of Object.entries(fields)) {
    if (value.includes('\u0000')) return refuse('ops.roster.line.badText', { column });
    if (value.length > MAX_FIELD) return refuse('ops.roster.line.tooLong', { column });
  }
  for (const column of ROSTER_VALUES[file]) {
    if ((fields[column] ?? '') === '') return refuse('ops.roster.line.required', { column });
  }
  const sourcedId = fields.sourcedId!;
  if (sourcedId.length > MAX_SOURCED_ID) {
    return refuse('ops.roster.line.tooLong', { column: 'sourcedId' });
  }
  const capped: readonly (readonly [string, number])[] =
    file === 'users'
      ? [
          ['givenName', MAX_NAME],
          ['familyName', MAX_NAME],
          ['preferredGivenName', MAX_NAME],
          ['preferredFamilyName', MAX_NAME],
        ]
      : file === 'courses' || file === 'classes' || file === 'academicSessions'
        ? [['title', MAX_TITLE]]
        : [];
  for (const [column, max] of capped) {
    if ((fields[column] ?? '').length > max) return refuse('ops.roster.line.tooLong', { column });
  }
  const status = fields.status ?? '';
  const modified = fields.dateLastModified ?? '';
  // Delta rows say what happened and when; a bulk snapshot leaves both blank (real exports
  // often write 'active' and a date there, which says nothing else, so it is read too).
  if (mode === 'delta' && status === '')
    return refuse('ops.roster.line.required', { column: 'status' });
  if (mode === 'delta' && modified === '') {
    return refuse('ops.roster.line.required', { column: 'dateLastModified' });
  }
  if (status !== '' && status !== 'active' && status !== 'tobedeleted') {
    return refuse('ops.roster.line.badValue', { column: 'status', value: status.slice(0, 40) });
  }
  if (modified !== '' && !isDateTime(modified)) {
    return refuse('ops.roster.line.badDate', {
      column: 'dateLastModified',
      value: modified.slice(0, 40),
    });
  }
  const base: Base = {
    line,
    sourcedId,
    status: status === 'tobedeleted' ? 'tobedeleted' : 'active',
  };
  const blank = (column: string) => {
    const value = fields[column] ?? '';
    return value === '' ? null : value;
  };
  const date = (column: string) => {
    const value = fields[column] ?? '';
    return value === '' || isCalendarDate(value)
      ? null
      : refuse('ops.roster.line.badDate', { column, value: value.slice(0, 40) });
  };
  const oneOf = <T extends string>(column: string, allowed: readonly T[]) => {
    const value = fields[column] ?? '';
    return (allowed as readonly string[]).includes(value)
      ? null
      : refuse('ops.roster.line.badValue', { column, value: value.slice(0, 40) });
  };
  const read = (): RowReading<RosterFile> => {
    switch (file) {
      case 'orgs':
        return { ok: true, row: { ...base, name: fields.name! } };
      case 'academicSessions': {
        const wrong = oneOf('type', SESSION_TYPES) ?? date('startDate') ?? date('endDate');
        if (wrong) return wrong;
        if (!/^\d{4}$/.test(fields.schoolYear!)) {
          return refuse('ops.roster.line.badValue', {
            column: 'schoolYear',
            value: fields.schoolYear!.slice(0, 40),
          });
        }
        if (fields.endDate! < fields.startDate!) return refuse('ops.roster.line.endsBeforeStart');
        return {
          ok: true,
          row: {
            ...base,
            title: fields.title!,
            type: fields.type as SessionRow['type'],
            startDate: fields.startDate!,
            endDate: fields.endDate!,
            parentSourcedId: blank('parentSourcedId'),
          },
        };
      }
      case 'courses':
        return {
          ok: true,
          row: {
            ...base,
            title: fields.title!,
            courseCode: blank('courseCode'),
            orgSourcedId: fields.orgSourcedId!,
          },
        };
      case 'classes': {
        const wrong = oneOf('classType', ['homeroom', 'scheduled']);
        if (wrong) return wrong;
        const termSourcedIds = fields.termSourcedIds!.split(',').map((id) => id.trim());
        if (termSourcedIds.some((id) => id === '')) {
          return refuse('ops.roster.line.badValue', {
            column: 'termSourcedIds',
            value: fields.termSourcedIds!.slice(0, 40),
          });
        }
        return {
          ok: true,
          row: {
            ...base,
            title: fields.title!,
            classCode: blank('classCode'),
            courseSourcedId: fields.courseSourcedId!,
            schoolSourcedId: fields.schoolSourcedId!,
            termSourcedIds: [...new Set(termSourcedIds)],
          },
        };
      }
      case 'users': {
        const wrong = oneOf('enabledUser', ['true', 'false']);
        if (wrong) return wrong;
        const email = blank('email');
        if (email !== null && (!EMAIL.test(email) || email.length > 254)) {
          return refuse('ops.roster.line.badValue', { column: 'email', value: email.slice(0, 40) });
        }
        return {
          ok: true,
          row: {
            ...base,
            givenName: blank('preferredGivenName') ?? fields.givenName!,
            familyName: blank('preferredFamilyName') ?? fields.familyName!,
            email,
            identifier: blank('identifier'),
          },
        };
      }
      case 'roles': {
        const wrong =
          oneOf('roleType', ['primary', 'secondary']) ??
          oneOf('role', ONEROSTER_ROLES) ??
          date('beginDate') ??
          date('endDate');
        if (wrong) return wrong;
        return {
          ok: true,
          row: {
            ...base,
            userSourcedId: fields.userSourcedId!,
            roleType: fields.roleType as RoleRow['roleType'],
            role: fields.role as OneRosterRole,
            orgSourcedId: fields.orgSourcedId!,
          },
        };
      }
      case 'enrollments': {
        const primary = fields.primary ?? '';
        const wrong =
          oneOf('role', ONEROSTER_ROLES) ??
          (primary === '' ? null : oneOf('primary', ['true', 'false'])) ??
          date('beginDate') ??
          date('endDate');
        if (wrong) return wrong;
        const beginDate = blank('beginDate');
        const endDate = blank('endDate');
        if (beginDate !== null && endDate !== null && endDate < beginDate)
          return refuse('ops.roster.line.enrolmentEndsBeforeStart');
        return {
          ok: true,
          row: {
            ...base,
            beginDate,
            endDate,
            classSourcedId: fields.classSourcedId!,
            schoolSourcedId: fields.schoolSourcedId!,
            userSourcedId: fields.userSourcedId!,
            role: fields.role as OneRosterRole,
            // The binding: blank is false (not the instructor of record).
            primary: primary === 'true',
          },
        };
      }
    }
    return refuse('ops.roster.line.badValue', { column: 'file', value: file });
  };
  return read() as RowReading<F>;
}
