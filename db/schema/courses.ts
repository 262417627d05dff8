import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.ts';
import { products } from './catalog.ts';
import { organizations } from './sites.ts';

export const courses = pgTable(
  'courses',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    name: text().notNull(),
    department: text().notNull(),
    number: text().notNull(),
    // Course types of spec 1 §1 / spec 2 §9, and issue 39's course fee (decision 036).
    courseType: text().notNull().default('inclusive_access'),
    // Issue 39: the campus's own id for the course (OneRoster courses.sourcedId), opaque,
    // kept byte for byte; null for a course made here.
    sourcedId: text(),
    // Issue 39: the course code as the campus wrote it (OneRoster courses.courseCode), byte for
    // byte ('CHM-210', 'ÉCO-1001', '化学101'); shown instead of department and number, which are
    // split from it for search. Null for a course made here, and once staff change its code.
    code: text(),
  },
  (t) => [
    index('courses_org').on(t.orgId),
    uniqueIndex('courses_org_sourced_id').on(t.orgId, t.sourcedId),
    // Search by course code (issue 19): 'BIO 101' (department, number), and 'Biology 101'
    // (its departments' org and code, with the number) each read a few index entries.
    index('courses_department_number').on(t.department, t.number, t.orgId),
    // A course by its own name ('Principles of Biology'; issue 38), once the name is read
    // from what was typed through the course_names dictionary (migration 0035).
    index('courses_name').on(sql`lower(${t.name})`, t.number),
    check(
      'courses_type',
      sql`${t.courseType} in ('inclusive_access', 'course_fee', 'lms_ecommerce', 'cds', 'student_choice')`,
    ),
  ],
);

// The name of a department code of an organisation: BIO is Biology (issue 19: 'Biology 101'
// finds BIO 101). Courses keep their code; a code without a row here is shown as the code.
export const departments = pgTable(
  'departments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    code: text().notNull(),
    name: text().notNull(),
    // The name in French (Canada); null shows `name`.
    nameFrCa: text(),
  },
  (t) => [
    uniqueIndex('departments_org_code').on(t.orgId, t.code),
    index('departments_name').on(sql`lower(${t.name})`),
    index('departments_name_fr_ca').on(sql`lower(${t.nameFrCa})`),
  ],
);

// Issue 39: a term (OneRoster academicSessions: term, semester, schoolYear, gradingPeriod) of
// an organisation. A section may belong to one; dates are the campus's calendar dates.
export const academicTerms = pgTable(
  'academic_terms',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    orgId: integer()
      .notNull()
      .references(() => organizations.id),
    // The campus's own id (OneRoster academicSessions.sourcedId); null for a term made here.
    sourcedId: text(),
    title: text().notNull(),
    termType: text().notNull().default('term'),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }).notNull(),
    parentId: integer().references((): AnyPgColumn => academicTerms.id),
    // When staff (or the roster's tobedeleted) ended it; an ended term stays for its history.
    endedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('academic_terms_org_sourced_id').on(t.orgId, t.sourcedId),
    index('academic_terms_org_dates').on(t.orgId, t.startDate),
    check('academic_terms_dates', sql`${t.endDate} >= ${t.startDate}`),
    check(
      'academic_terms_type',
      sql`${t.termType} in ('term', 'semester', 'schoolYear', 'gradingPeriod')`,
    ),
  ],
);

/** A section code as codes are compared (domain/access/code-entry.ts canonicalCode), in SQL. */
function sectionCodeKey(code: AnyPgColumn) {
  return sql`upper(regexp_replace(normalize(${code}, NFKC), '[[:space:]\\u2010-\\u2015\\u2212\\u00ad-]', '', 'g'))`;
}

export const courseSections = pgTable(
  'course_sections',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    courseId: integer()
      .notNull()
      .references(() => courses.id),
    name: text().notNull(),
    number: text(),
    rsCourseId: text().notNull(),
    startDate: date({ mode: 'string' }).notNull(),
    endDate: date({ mode: 'string' }).notNull(),
    // addDropInCourseTimezone: the add/drop (opting) deadline as an instant.
    addDropAt: timestamp({ withTimezone: true }).notNull(),
    timeZone: text().notNull().default('America/New_York'),
    optingMethod: text().notNull().default('opt-out'),
    disableAutoProvisioning: boolean().notNull().default(false),
    // Classroom section code an instructor hands out (spec 1 §4, Classroom redeem prompt).
    sectionCode: text(),
    // The course fee the inclusive-access program bills, integer cents in USD (issue 19);
    // null when the section has none on file.
    courseFeeCents: integer(),
    // Issue 39: the term the section runs in (null for sections made before terms existed).
    termId: integer().references(() => academicTerms.id),
    // Issue 39: the campus's own id for the class (OneRoster classes.sourcedId).
    sourcedId: text(),
    // Issue 39: when staff (or the roster) ended the section; its history stays.
    endedAt: timestamp({ withTimezone: true }),
    // Issue 39: the end of the campus's add/drop period; a student who drops by then is
    // credited by the bursar. Null: the same instant as the opt-out deadline (addDropAt).
    dropPeriodEndsAt: timestamp({ withTimezone: true }),
    // Issue 39: the course's organisation, copied by the database (trigger course_sections_org,
    // migration 0044) whoever writes the section, so that the index below can hold a classroom
    // section code unique per campus.
    orgId: integer().references(() => organizations.id),
  },
  (t) => [
    // Decision 036: a classroom section code is unique among the campus's running sections, as
    // codes are compared (canonicalCode: NFKC, no spaces or hyphens, upper case). The index
    // decides between two staff saving one code at once.
    uniqueIndex('course_sections_org_code')
      .on(t.orgId, sectionCodeKey(t.sectionCode))
      .where(sql`${t.endedAt} is null and ${t.sectionCode} is not null`),
    uniqueIndex('course_sections_rs_course_id').on(t.rsCourseId),
    index('course_sections_term').on(t.termId),
    uniqueIndex('course_sections_sourced_id').on(t.courseId, t.sourcedId),
    index('course_sections_course').on(t.courseId),
    check('course_sections_dates', sql`${t.endDate} >= ${t.startDate}`),
    check('course_sections_opting_method', sql`${t.optingMethod} in ('opt-out', 'no-opt')`),
    check(
      'course_sections_course_fee',
      sql`${t.courseFeeCents} is null or ${t.courseFeeCents} >= 0`,
    ),
  ],
);

export const sectionMembers = pgTable(
  'section_members',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sectionId: integer()
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull(),
    optStatus: text().notNull().default('opted_in'),
    canUpdateOptStatus: boolean().notNull().default(true),
    isCourseFee: boolean().notNull().default(false),
    addDropDate: timestamp({ withTimezone: true }).notNull(),
    rsCoursememberId: text().notNull(),
    isClassroomInstructor: boolean().notNull().default(false),
  },
  (t) => [
    uniqueIndex('section_members_section_user').on(t.sectionId, t.userId),
    uniqueIndex('section_members_rs_id').on(t.rsCoursememberId),
    index('section_members_user').on(t.userId),
    check('section_members_role', sql`${t.role} in ('professor', 'teaching_assistant', 'student')`),
    check('section_members_opt_status', sql`${t.optStatus} in ('opted_in', 'opted_out')`),
  ],
);

// Issue 39: an enrolment that ended (the roster dropped it, or staff removed the person). The
// member row goes, with what the section gave; this row keeps what billing needs to credit a
// drop: who, which section, when, and how they stood.
export const sectionMemberDrops = pgTable(
  'section_member_drops',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sectionId: integer()
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    userId: integer()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    role: text().notNull(),
    optStatus: text().notNull(),
    isCourseFee: boolean().notNull(),
    rsCoursememberId: text().notNull(),
    droppedAt: timestamp({ withTimezone: true }).notNull(),
    // 'roster' (the campus's import) or 'staff'.
    source: text().notNull(),
  },
  (t) => [
    index('section_member_drops_section').on(t.sectionId, t.droppedAt),
    index('section_member_drops_user').on(t.userId),
    check('section_member_drops_source', sql`${t.source} in ('roster', 'staff')`),
  ],
);

// Every opt change, with time, actor and reason (spec 1 §4, §5).
export const optChanges = pgTable(
  'opt_changes',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    memberId: integer()
      .notNull()
      .references(() => sectionMembers.id, { onDelete: 'cascade' }),
    actorUserId: integer()
      .notNull()
      .references(() => users.id),
    fromStatus: text().notNull(),
    toStatus: text().notNull(),
    reason: smallint(),
    message: text(),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('opt_changes_member').on(t.memberId, t.changedAt),
    check('opt_changes_reason', sql`${t.reason} is null or ${t.reason} between 1 and 5`),
    check('opt_changes_message', sql`${t.message} is null or length(${t.message}) <= 256`),
  ],
);

export const sectionProducts = pgTable(
  'section_products',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    sectionId: integer()
      .notNull()
      .references(() => courseSections.id, { onDelete: 'cascade' }),
    productId: integer()
      .notNull()
      .references(() => products.id),
    // The other version of a physical/digital choice (spec 1 §3 additionalShelfItem).
    additionalProductId: integer().references(() => products.id),
    isPhysicalDigitalChoice: boolean().notNull().default(false),
    isContinuation: boolean().notNull().default(false),
    // LTI passthrough partner: 0 or 2 (spec 2 §4).
    ltiPassthrough: smallint(),
    isLinkEnabled: boolean().notNull().default(false),
    shouldHideCode: boolean().notNull().default(false),
    showRedeem: boolean().notNull().default(false),
    coursewarePricingId: text(),
    position: smallint().notNull().default(0),
    // Required or optional for the section (issue 19: the course finder says which).
    isRequired: boolean().notNull().default(true),
  },
  (t) => [
    uniqueIndex('section_products_section_product').on(t.sectionId, t.productId),
    index('section_products_product').on(t.productId),
    // SKU Lookup: the sections listing a product as the other half of a print/digital choice.
    index('section_products_additional_product')
      .on(t.additionalProductId)
      .where(sql`${t.additionalProductId} is not null`),
    check(
      'section_products_lti',
      sql`${t.ltiPassthrough} is null or ${t.ltiPassthrough} in (0, 2)`,
    ),
  ],
);
