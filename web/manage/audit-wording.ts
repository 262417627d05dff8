import type { Locale } from '#domain/accounts/language.ts';
import type { AuditLine, AuditValues } from '#domain/operations/audit.ts';
import type { AuditAction } from '#domain/operations/audit-actions.ts';
import type { MessageParams } from '#i18n/format-message.ts';
import { formatMoney } from '#i18n/format-money.ts';
import type { MessageId } from '#i18n/messages/en.ts';

/**
 * Issue 39: the audit "readable on the object's page" — for a bookstore manager, in their
 * language. One place says what each recorded action and field means and how a value reads:
 * money in the locale's format, instants in the reader's zone (a section's deadlines on the
 * section's clock when the entry names it), yes/no, the enums' own labels, people by name,
 * terms and products by their names.
 * Codes written before a message existed read through a generic form, never a crash.
 */

/** Every action recorded (AUDIT_ACTIONS) has its message: the compiler asks for each. */
export const AUDIT_ACTION_MESSAGES: Record<AuditAction, MessageId> = {
  'term.create': 'audit.do.termCreate',
  'term.edit': 'audit.do.termEdit',
  'term.end': 'audit.do.termEnd',
  'course.create': 'audit.do.courseCreate',
  'course.edit': 'audit.do.courseEdit',
  'course.end': 'audit.do.courseEnd',
  'section.create': 'audit.do.sectionCreate',
  'section.edit': 'audit.do.sectionEdit',
  'section.end': 'audit.do.sectionEnd',
  'member.add': 'audit.do.memberAdd',
  'member.update': 'audit.do.memberUpdate',
  'member.role': 'audit.do.memberRole',
  'member.end': 'audit.do.memberEnd',
  'material.add': 'audit.do.materialAdd',
  'material.remove': 'audit.do.materialRemove',
  'material.required': 'audit.do.materialRequired',
  'roster.create': 'audit.do.rosterCreate',
  'roster.update': 'audit.do.rosterUpdate',
  'roster.link': 'audit.do.rosterLink',
  'roster.end': 'audit.do.rosterEnd',
  'billing.run': 'audit.do.billingRun',
  refund: 'audit.do.refund',
  update: 'audit.do.update',
  'refund.refuse': 'audit.do.refundRefuse',
  lock: 'audit.do.lock',
  unlock: 'audit.do.unlock',
  'mail.verify': 'audit.do.mailVerify',
  'mail.reset': 'audit.do.mailReset',
  'role.grant': 'audit.do.roleGrant',
  'role.revoke': 'audit.do.roleRevoke',
  'impersonate.start': 'audit.do.impersonateStart',
  'impersonate.end': 'audit.do.impersonateEnd',
  'impersonate.request': 'audit.do.impersonateRequest',
  'stock.receive': 'audit.do.stockReceive',
  'stock.count': 'audit.do.stockCount',
};

/** How a field's value reads. */
type FieldKind =
  | { kind: 'text' }
  | { kind: 'count' }
  /** Integer cents; the currency is the entry's `currency` field, else the store's (USD). */
  | { kind: 'money'; none?: MessageId }
  /** An ISO instant; `sectionClock`: on the section's clock when the entry names its zone. */
  | { kind: 'instant'; sectionClock?: boolean }
  /** A calendar day, YYYY-MM-DD, the same everywhere. */
  | { kind: 'date' }
  | { kind: 'yesNo' }
  /** A user id: the person's name (auditTrail looks it up), else "person #53". */
  | { kind: 'person' }
  /** A term's id: its name (auditTrail looks it up), else "#12". */
  | { kind: 'term' }
  /** A product's id: its title (auditTrail looks it up), else "#12". */
  | { kind: 'product' }
  /** A code with its label; a code without one (a newer one) shows as recorded. */
  | { kind: 'enum'; labels: Labels }
  /** A comma-separated list of such codes (a person's staff roles). */
  | { kind: 'list'; labels: Labels };

type Labels = Readonly<Record<string, MessageId>>;

// The enums' labels are the ones their own pages show.
const MEMBER_ROLES: Labels = {
  student: 'ops.courses.role.student',
  professor: 'ops.courses.role.professor',
  teaching_assistant: 'ops.courses.role.teaching_assistant',
};
const OPT_STATUSES: Labels = {
  opted_in: 'ops.courses.opt.opted_in',
  opted_out: 'ops.courses.opt.opted_out',
};
const SOURCES: Labels = { roster: 'audit.source.roster', staff: 'audit.source.staff' };
const TERM_TYPES: Labels = {
  term: 'ops.courses.termType.term',
  semester: 'ops.courses.termType.semester',
  schoolYear: 'ops.courses.termType.schoolYear',
  gradingPeriod: 'ops.courses.termType.gradingPeriod',
};
const COURSE_TYPES: Labels = {
  inclusive_access: 'ops.courses.type.inclusive_access',
  course_fee: 'ops.courses.type.course_fee',
  lms_ecommerce: 'ops.courses.type.lms_ecommerce',
  cds: 'ops.courses.type.cds',
  student_choice: 'ops.courses.type.student_choice',
};
const OPTING_METHODS: Labels = {
  'opt-out': 'ops.courses.optingMethod.opt-out',
  'no-opt': 'ops.courses.optingMethod.no-opt',
};
const REFUND_STATES: Labels = {
  none: 'audit.refund.none',
  requested: 'audit.refund.requested',
  approved: 'audit.refund.approved',
  refused: 'audit.refund.refused',
};
const STAFF_ROLES: Labels = {
  manager: 'ops.helpdesk.role.manager',
  bookstore_manager: 'ops.helpdesk.role.bookstore_manager',
  support: 'ops.helpdesk.role.support',
  admin: 'ops.helpdesk.role.admin',
  publisher: 'ops.helpdesk.role.publisher',
};

type Field = { label: MessageId } & FieldKind;

/** The fields the code base records (the values of recordAudit's before and after). */
export const AUDIT_FIELDS: Readonly<Record<string, Field>> = {
  // A section's members and materials.
  userId: { label: 'audit.field.person', kind: 'person' },
  email: { label: 'audit.field.email', kind: 'text' },
  role: { label: 'ops.courses.field.role', kind: 'enum', labels: MEMBER_ROLES },
  isCourseFee: { label: 'audit.field.isCourseFee', kind: 'yesNo' },
  optStatus: { label: 'ops.courses.optStatus', kind: 'enum', labels: OPT_STATUSES },
  source: { label: 'audit.field.source', kind: 'enum', labels: SOURCES },
  productId: { label: 'audit.field.product', kind: 'product' },
  title: { label: 'audit.field.title', kind: 'text' },
  required: { label: 'ops.courses.required', kind: 'yesNo' },
  // Terms, courses and sections.
  termType: { label: 'ops.courses.field.termType', kind: 'enum', labels: TERM_TYPES },
  startDate: { label: 'ops.courses.field.startDate', kind: 'date' },
  endDate: { label: 'ops.courses.field.endDate', kind: 'date' },
  endedAt: { label: 'audit.field.endedAt', kind: 'instant' },
  name: { label: 'audit.field.title', kind: 'text' },
  department: { label: 'ops.courses.field.department', kind: 'text' },
  number: { label: 'audit.field.number', kind: 'text' },
  courseType: { label: 'ops.courses.field.courseType', kind: 'enum', labels: COURSE_TYPES },
  termId: { label: 'ops.courses.field.term', kind: 'term' },
  timeZone: { label: 'ops.courses.field.timeZone', kind: 'text' },
  addDropAt: { label: 'ops.courses.field.optOut', kind: 'instant', sectionClock: true },
  dropPeriodEndsAt: {
    label: 'ops.courses.field.dropPeriod',
    kind: 'instant',
    sectionClock: true,
  },
  optingMethod: {
    label: 'ops.courses.field.optingMethod',
    kind: 'enum',
    labels: OPTING_METHODS,
  },
  courseFeeCents: { label: 'audit.field.courseFee', kind: 'money', none: 'ops.courses.noFee' },
  provisionsMaterials: { label: 'audit.field.provisionsMaterials', kind: 'yesNo' },
  sectionCode: { label: 'ops.courses.field.sectionCode', kind: 'text' },
  // The roster import.
  sourcedId: { label: 'audit.field.sourcedId', kind: 'text' },
  parent: { label: 'audit.field.rosterParent', kind: 'text' },
  course: { label: 'audit.field.rosterCourse', kind: 'text' },
  term: { label: 'audit.field.rosterTerm', kind: 'text' },
  campusId: { label: 'audit.field.campusId', kind: 'text' },
  firstName: { label: 'audit.field.firstName', kind: 'text' },
  lastName: { label: 'audit.field.lastName', kind: 'text' },
  // Refunds and bursar billing.
  item: { label: 'audit.field.item', kind: 'text' },
  refund: { label: 'audit.field.refund', kind: 'enum', labels: REFUND_STATES },
  amountCents: { label: 'audit.field.amount', kind: 'money' },
  sequence: { label: 'audit.field.sequence', kind: 'count' },
  charges: { label: 'audit.field.charges', kind: 'count' },
  credits: { label: 'audit.field.credits', kind: 'count' },
  // My Inventory.
  stock: { label: 'audit.field.stock', kind: 'count' },
  totalCents: { label: 'audit.field.total', kind: 'money' },
  currency: { label: 'audit.field.currency', kind: 'text' },
  refunded: { label: 'audit.field.refunded', kind: 'yesNo' },
  columns: { label: 'audit.field.columns', kind: 'text' },
  // The help desk.
  isActive: { label: 'audit.field.isActive', kind: 'yesNo' },
  to: { label: 'audit.field.to', kind: 'text' },
  roles: { label: 'ops.helpdesk.person.roles', kind: 'list', labels: STAFF_ROLES },
  until: { label: 'audit.field.until', kind: 'instant' },
  request: { label: 'audit.field.request', kind: 'text' },
};

export type AuditReader = {
  t: (id: string, params?: MessageParams) => string;
  locale: Locale;
  /** The reader's time zone. */
  timeZone: string;
};

export type AuditChange = { field: string; label: string; value: string };

type LineFacts = Pick<AuditLine, 'action' | 'actingAsUserId' | 'before' | 'after' | 'people'> &
  Partial<Pick<AuditLine, 'terms' | 'products'>>;

function personName(line: Pick<LineFacts, 'people'>, id: number, reader: AuditReader): string {
  return line.people?.[id] ?? reader.t('audit.value.person', { id });
}

/** What was done, in words ("Section created", "Started acting as Sam Lee"). */
export function auditActionText(line: LineFacts, reader: AuditReader): string {
  if (!Object.hasOwn(AUDIT_ACTION_MESSAGES, line.action)) {
    return reader.t('audit.do.other', { code: humanized(line.action) });
  }
  const id = AUDIT_ACTION_MESSAGES[line.action as AuditAction];
  const person =
    line.actingAsUserId === null
      ? reader.t('audit.value.someone')
      : personName(line, line.actingAsUserId, reader);
  return reader.t(id, { person });
}

/** One side of the change (before or after), field by field, in the reader's words. */
export function auditChanges(
  values: AuditValues | null,
  line: LineFacts,
  reader: AuditReader,
): AuditChange[] {
  if (!values) return [];
  return Object.entries(values).map(([field, value]) => {
    const known = Object.hasOwn(AUDIT_FIELDS, field) ? AUDIT_FIELDS[field] : undefined;
    return {
      field,
      label: known ? reader.t(known.label) : humanized(field),
      value: valueText(value, known, values, line, reader),
    };
  });
}

function valueText(
  value: AuditValues[string],
  field: Field | undefined,
  values: AuditValues,
  line: LineFacts,
  reader: AuditReader,
): string {
  const { t, locale } = reader;
  if (value === null || value === '') {
    return field?.kind === 'money' && field.none ? t(field.none) : t('audit.value.none');
  }
  if (!field) return genericText(value, reader);
  switch (field.kind) {
    case 'money': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) return String(value);
      const currency = typeof values.currency === 'string' ? values.currency : 'USD';
      try {
        return formatMoney(locale, value, currency);
      } catch {
        return formatMoney(locale, value);
      }
    }
    case 'count':
      return typeof value === 'number' ? numberFormat(locale).format(value) : String(value);
    case 'instant':
      return instantText(value, reader, field.sectionClock ? zoneOf(line) : null);
    case 'date':
      return dateText(value, locale);
    case 'yesNo':
      return typeof value === 'boolean'
        ? t(value ? 'audit.value.yes' : 'audit.value.no')
        : String(value);
    case 'person':
      return typeof value === 'number' ? personName(line, value, reader) : String(value);
    case 'term':
      return nameOrRef(line.terms, value, reader);
    case 'product':
      return nameOrRef(line.products, value, reader);
    case 'enum':
      return codeText(String(value), field.labels, reader);
    case 'list': {
      const codes = String(value)
        .split(',')
        .map((code) => code.trim())
        .filter((code) => code !== '');
      if (codes.length === 0) return t('audit.value.none');
      return listFormat(locale).format(codes.map((code) => codeText(code, field.labels, reader)));
    }
    default:
      return String(value);
  }
}

/** Another object by its name when the trail found it (a term, a product), else by its id. */
function nameOrRef(
  names: Readonly<Record<number, string>> | undefined,
  value: string | number | boolean,
  reader: AuditReader,
): string {
  const name = typeof value === 'number' ? names?.[value] : undefined;
  return name ?? reader.t('audit.value.ref', { id: String(value) });
}

/** A value of a field without a wording yet: booleans and instants still read as such. */
function genericText(value: string | number | boolean, reader: AuditReader): string {
  if (typeof value === 'boolean') return reader.t(value ? 'audit.value.yes' : 'audit.value.no');
  if (typeof value === 'string' && ISO_INSTANT.test(value)) return instantText(value, reader, null);
  return String(value);
}

function codeText(code: string, labels: Labels, reader: AuditReader): string {
  return Object.hasOwn(labels, code) ? reader.t(labels[code]!) : code;
}

/** The section's own clock, when the entry recorded it (a section created or its zone moved). */
function zoneOf(line: LineFacts): string | null {
  const zone = line.after?.timeZone ?? line.before?.timeZone;
  return typeof zone === 'string' && zone !== '' ? zone : null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;

/** An instant with its zone named ("Jan 31, 2027, 11:59 PM EST"), so no reader guesses. */
function instantText(value: string | number | boolean, reader: AuditReader, zone: string | null) {
  if (typeof value !== 'string') return String(value);
  const at = new Date(value);
  if (Number.isNaN(at.getTime())) return value;
  return (
    instantFormat(reader.locale, zone ?? reader.timeZone) ??
    instantFormat(reader.locale, reader.timeZone) ??
    instantFormat(reader.locale, 'UTC')!
  ).format(at);
}

function dateText(value: string | number | boolean, locale: Locale): string {
  if (typeof value !== 'string' || !CALENDAR_DATE.test(value)) return String(value);
  const day = new Date(`${value}T12:00:00Z`);
  if (Number.isNaN(day.getTime())) return value;
  return dateFormat(locale).format(day);
}

/** 'dropPeriodEndsAt' → 'Drop period ends at', 'impersonate.start' → 'Impersonate start'. */
export function humanized(code: string): string {
  const words = code
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[._-]+/g, ' ')
    .trim()
    .toLowerCase();
  return words === '' ? code : words[0]!.toUpperCase() + words.slice(1);
}

// Building an Intl formatter costs far more than using one: one per locale (and zone).
const formats = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>();

function cached<F extends Intl.DateTimeFormat | Intl.NumberFormat | Intl.ListFormat>(
  key: string,
  make: () => F,
): F {
  let format = formats.get(key) as F | undefined;
  if (!format) {
    format = make();
    formats.set(key, format);
  }
  return format;
}

function instantFormat(locale: Locale, timeZone: string): Intl.DateTimeFormat | null {
  try {
    return cached(
      `instant:${locale}:${timeZone}`,
      () =>
        new Intl.DateTimeFormat(locale, {
          year: 'numeric',
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
          timeZoneName: 'short',
          timeZone,
        }),
    );
  } catch {
    // A zone Intl does not know (recorded by hand, or from an older tz database).
    return null;
  }
}

function dateFormat(locale: Locale): Intl.DateTimeFormat {
  return cached(
    `date:${locale}`,
    () =>
      new Intl.DateTimeFormat(locale, {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        timeZone: 'UTC',
      }),
  );
}

function numberFormat(locale: Locale): Intl.NumberFormat {
  return cached(`number:${locale}`, () => new Intl.NumberFormat(locale));
}

function listFormat(locale: Locale): Intl.ListFormat {
  return cached(
    `list:${locale}`,
    () => new Intl.ListFormat(locale, { style: 'long', type: 'conjunction' }),
  );
}
