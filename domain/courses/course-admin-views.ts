import { and, asc, eq, inArray } from 'drizzle-orm';
import { users } from '#db/schema/accounts.ts';
import { productIdentifiers, products } from '#db/schema/catalog.ts';
import { academicTerms, sectionMembers, sectionProducts } from '#db/schema/courses.ts';
import type { Locale } from '#domain/accounts/language.ts';
import { shownIsbn } from '#domain/catalog/shown-isbn.ts';
import { type AuditLine, auditTrail } from '#domain/operations/audit.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import {
  actingAsNames,
  scopedCourse,
  scopedSection,
  scopedTerm,
  staffOf,
} from './course-admin-scope.ts';
import { courseSectionsOf } from './course-admin-service.ts';
import { zonedDateTime } from './course-time-zone.ts';
import { endedByStaff, runningStatus, type Span, todayOn } from './running-status.ts';
import { feeText, type SectionInput } from './section-rules.ts';

// Issue 39, Course Manager: what the term, course and section pages show — the object, what
// hangs from it, and its audit (every staff-changed object's page shows it). Read inside the
// person's scope: another campus's id is not found.

type Audited = { audit: AuditLine[]; actingAsNames: Record<number, string> };

async function audited(ctx: RequestContext, type: string, id: number): Promise<Audited> {
  const audit = await auditTrail(ctx.db, type, id);
  return { audit, actingAsNames: await actingAsNames(ctx.db, audit) };
}

export async function termView(ctx: RequestContext, termId: number) {
  const { scope } = staffOf(ctx);
  const term = await scopedTerm(ctx.db, scope, termId);
  const [sections, history] = await Promise.all([
    courseSectionsOf(ctx.db, { termId }, ctx.now),
    audited(ctx, 'term', termId),
  ]);
  // A term has no clock of its own: its last day is over on the reader's.
  const status = runningStatus(term, null, todayOn(ctx.now, ctx.user?.timeZone ?? 'UTC'));
  return { term, status, sections, ...history };
}

/** The organisation's terms, for a section's term field. */
async function termChoices(ctx: RequestContext, orgId: number) {
  return ctx.db
    .select({ id: academicTerms.id, title: academicTerms.title, endedAt: academicTerms.endedAt })
    .from(academicTerms)
    .where(eq(academicTerms.orgId, orgId))
    .orderBy(asc(academicTerms.startDate), asc(academicTerms.id));
}

export async function courseView(ctx: RequestContext, courseId: number) {
  const { scope } = staffOf(ctx);
  const course = await scopedCourse(ctx.db, scope, courseId);
  const [sections, terms, history] = await Promise.all([
    courseSectionsOf(ctx.db, { courseId }, ctx.now),
    termChoices(ctx, course.orgId),
    audited(ctx, 'course', courseId),
  ]);
  return { course, sections, terms, ...history };
}

/** A section as its edit form shows it: the deadlines on the course's clock. */
export function sectionFormValues(
  section: {
    name: string;
    number: string | null;
    termId: number | null;
    startDate: string;
    endDate: string;
    timeZone: string;
    addDropAt: Date;
    dropPeriodEndsAt: Date | null;
    optingMethod: string;
    courseFeeCents: number | null;
    sectionCode: string | null;
  },
  locale: Locale,
): SectionInput {
  const optOut = zonedDateTime(section.addDropAt, section.timeZone);
  const drop = section.dropPeriodEndsAt
    ? zonedDateTime(section.dropPeriodEndsAt, section.timeZone)
    : { date: '', time: '' };
  return {
    name: section.name,
    number: section.number ?? '',
    termId: section.termId === null ? '' : String(section.termId),
    startDate: section.startDate,
    endDate: section.endDate,
    timeZone: section.timeZone,
    optOutDate: optOut.date,
    optOutTime: optOut.time,
    dropDate: drop.date,
    dropTime: drop.time,
    optingMethod: section.optingMethod,
    fee: feeText(section.courseFeeCents, locale),
    sectionCode: section.sectionCode ?? '',
  };
}

export async function sectionView(ctx: RequestContext, sectionId: number) {
  const { scope } = staffOf(ctx);
  const { section, course } = await scopedSection(ctx.db, scope, sectionId);
  const [members, adopted, terms, history, term] = await Promise.all([
    ctx.db
      .select({
        id: sectionMembers.id,
        role: sectionMembers.role,
        optStatus: sectionMembers.optStatus,
        isCourseFee: sectionMembers.isCourseFee,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(sectionMembers)
      .innerJoin(users, eq(users.id, sectionMembers.userId))
      .where(eq(sectionMembers.sectionId, sectionId))
      .orderBy(asc(sectionMembers.role), asc(users.lastName), asc(users.email))
      .limit(2000),
    ctx.db
      .select({
        id: sectionProducts.id,
        productId: products.id,
        title: products.title,
        productType: products.productType,
        isRequired: sectionProducts.isRequired,
      })
      .from(sectionProducts)
      .innerJoin(products, eq(products.id, sectionProducts.productId))
      .where(eq(sectionProducts.sectionId, sectionId))
      .orderBy(asc(sectionProducts.position), asc(sectionProducts.id)),
    termChoices(ctx, course.orgId),
    audited(ctx, 'section', sectionId),
    termOf(ctx, section.termId),
  ]);
  const ids = adopted.map((m) => m.productId);
  const identifiers =
    ids.length === 0
      ? []
      : await ctx.db
          .select({
            productId: productIdentifiers.productId,
            type: productIdentifiers.type,
            value: productIdentifiers.value,
          })
          .from(productIdentifiers)
          .where(and(inArray(productIdentifiers.productId, ids)));
  const materials = adopted.map((m) => ({
    ...m,
    isbn: shownIsbn(identifiers.filter((i) => i.productId === m.productId)),
  }));
  return {
    section,
    course,
    /** Running or ended (running-status.ts): ended with its term, or past its last day. */
    status: runningStatus(section, term, todayOn(ctx.now, section.timeZone)),
    /** Ended by staff (itself or its term): its fields, members and materials change no more. */
    closed: endedByStaff(section, term),
    members,
    materials,
    terms,
    form: sectionFormValues(section, ctx.locale),
    ...history,
  };
}

/** The term a section runs in, as its status reads it; null when it has none. */
async function termOf(ctx: RequestContext, termId: number | null): Promise<Span | null> {
  if (termId === null) return null;
  const [term] = await ctx.db
    .select({ endedAt: academicTerms.endedAt, endDate: academicTerms.endDate })
    .from(academicTerms)
    .where(eq(academicTerms.id, termId));
  return term ?? null;
}

// ── Confirmations ──
// Ending a term or a section and removing a member ask first (issue 39: pages work without
// JavaScript): the first post answers with what it would change, named, found in the person's
// scope as the change itself will be — another campus's is not found at this step either.

/** The term to end: its title. */
export async function termToEnd(ctx: RequestContext, termId: number) {
  const { scope } = staffOf(ctx);
  const term = await scopedTerm(ctx.db, scope, termId);
  return { title: term.title };
}

/** The section to end: found in scope (the page names it). */
export async function sectionToEnd(ctx: RequestContext, sectionId: number) {
  const { scope } = staffOf(ctx);
  const { section } = await scopedSection(ctx.db, scope, sectionId);
  return { id: section.id };
}

/** The member to remove from the section: their name and e-mail. */
export async function memberToRemove(ctx: RequestContext, sectionId: number, memberId: number) {
  const { scope } = staffOf(ctx);
  await scopedSection(ctx.db, scope, sectionId);
  const [member] = await ctx.db
    .select({ email: users.email, firstName: users.firstName, lastName: users.lastName })
    .from(sectionMembers)
    .innerJoin(users, eq(users.id, sectionMembers.userId))
    .where(and(eq(sectionMembers.id, memberId), eq(sectionMembers.sectionId, sectionId)));
  if (!member) throw new NotFound();
  return {
    id: memberId,
    email: member.email,
    name: `${member.firstName} ${member.lastName}`.trim() || member.email,
  };
}
