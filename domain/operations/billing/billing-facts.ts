import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { billingCharges, billingMappings } from '#db/schema/billing.ts';
import {
  academicTerms,
  courseSections,
  courses,
  sectionMemberDrops,
  sectionMembers,
} from '#db/schema/courses.ts';
import { campusPeople } from '#db/schema/operations.ts';
import { courseCodeLabel } from '#domain/courses/course-code.ts';
import type { OptStatus } from '#domain/courses/opting.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { inOrgScope, type OrgScope } from '../staff-scope.ts';
import type { BilledCharge, RunDrop, RunMember, RunSection } from './billing-lines.ts';
import { BILLING_FIELDS, type BillingColumn, DEFAULT_BILLING_COLUMNS } from './charge-file.ts';

/** Issue 39: what a term's billing is computed from, loaded in one place for preview and run. */
export type BillingTerm = { id: number; orgId: number; title: string };

/** The term, when it is in the staff member's scope; else not found, as for an unknown id. */
export async function billingTermOf(
  db: Queryable,
  scope: OrgScope,
  termId: number,
): Promise<BillingTerm> {
  const [term] = await db
    .select({ id: academicTerms.id, orgId: academicTerms.orgId, title: academicTerms.title })
    .from(academicTerms)
    .where(eq(academicTerms.id, termId));
  if (!term || !inOrgScope(scope, term.orgId)) throw new NotFound();
  return term;
}

export type BillingFacts = {
  sections: RunSection[];
  members: RunMember[];
  drops: RunDrop[];
  charges: (BilledCharge & { netCents: number })[];
};

const nameOf = (u: { firstName: string; lastName: string }) =>
  `${u.firstName} ${u.lastName}`.trim();

export async function billingFacts(db: Queryable, term: BillingTerm): Promise<BillingFacts> {
  const sectionRows = await db
    .select({
      sectionId: courseSections.id,
      department: courses.department,
      number: courses.number,
      code: courses.code,
      sectionNumber: courseSections.number,
      sectionName: courseSections.name,
      addDropAt: courseSections.addDropAt,
      dropPeriodEndsAt: courseSections.dropPeriodEndsAt,
      courseFeeCents: courseSections.courseFeeCents,
      timeZone: courseSections.timeZone,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(and(eq(courseSections.termId, term.id), eq(courses.orgId, term.orgId)));
  const sections: RunSection[] = sectionRows.map((s) => ({
    sectionId: s.sectionId,
    courseCode: courseCodeLabel(s),
    sectionLabel: s.sectionNumber ?? s.sectionName,
    addDropAt: s.addDropAt,
    dropPeriodEndsAt: s.dropPeriodEndsAt,
    courseFeeCents: s.courseFeeCents,
    timeZone: s.timeZone,
  }));
  if (sections.length === 0) return { sections, members: [], drops: [], charges: [] };
  const ids = sections.map((s) => s.sectionId);
  const person = {
    userId: users.id,
    email: users.email,
    firstName: users.firstName,
    lastName: users.lastName,
    campusId: campusPeople.campusId,
  };
  const campusOf = and(eq(campusPeople.userId, users.id), eq(campusPeople.orgId, term.orgId));
  const [memberRows, dropRows, chargeRows] = await Promise.all([
    db
      .select({
        ...person,
        sectionId: sectionMembers.sectionId,
        role: sectionMembers.role,
        optStatus: sectionMembers.optStatus,
        addDropDate: sectionMembers.addDropDate,
      })
      .from(sectionMembers)
      .innerJoin(users, eq(users.id, sectionMembers.userId))
      .leftJoin(campusPeople, campusOf)
      .where(and(inArray(sectionMembers.sectionId, ids), eq(sectionMembers.role, 'student'))),
    db
      .select({
        ...person,
        sectionId: sectionMemberDrops.sectionId,
        role: sectionMemberDrops.role,
        optStatus: sectionMemberDrops.optStatus,
        droppedAt: sectionMemberDrops.droppedAt,
      })
      .from(sectionMemberDrops)
      .innerJoin(users, eq(users.id, sectionMemberDrops.userId))
      .leftJoin(campusPeople, campusOf)
      .where(
        and(inArray(sectionMemberDrops.sectionId, ids), eq(sectionMemberDrops.role, 'student')),
      ),
    db
      .select({
        chargeId: billingCharges.id,
        sectionId: billingCharges.sectionId,
        userId: billingCharges.userId,
        amountCents: billingCharges.amountCents,
        campusId: billingCharges.campusId,
        refundedAt: billingCharges.refundedAt,
        creditCents: sql<
          number | null
        >`(select c.amount_cents from billing_charges c where c.reverses_charge_id = "billing_charges"."id")`,
      })
      .from(billingCharges)
      .where(and(inArray(billingCharges.sectionId, ids), eq(billingCharges.kind, 'charge'))),
  ]);
  return {
    sections,
    members: memberRows.map((m) => ({
      ...m,
      name: nameOf(m),
      optStatus: m.optStatus as OptStatus,
    })),
    drops: dropRows.map((d) => ({ ...d, name: nameOf(d), optStatus: d.optStatus as OptStatus })),
    charges: chargeRows.map((c) => ({
      chargeId: c.chargeId,
      sectionId: c.sectionId,
      userId: c.userId,
      amountCents: c.amountCents,
      campusId: c.campusId,
      credited: c.creditCents !== null,
      refunded: c.refundedAt !== null,
      netCents: c.amountCents + Number(c.creditCents ?? 0),
    })),
  };
}

/** The campus's columns, or the default when it has set none. */
export async function billingColumnsOf(db: Queryable, orgId: number): Promise<BillingColumn[]> {
  const [row] = await db
    .select({ columns: billingMappings.columns })
    .from(billingMappings)
    .where(eq(billingMappings.orgId, orgId));
  const stored = (row?.columns ?? []).filter((c): c is BillingColumn =>
    (BILLING_FIELDS as readonly string[]).includes(c.field),
  );
  return stored.length > 0 ? stored : [...DEFAULT_BILLING_COLUMNS];
}
