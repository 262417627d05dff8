import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { courseSections, courses, sectionMemberDrops, sectionMembers } from '#db/schema/courses.ts';
import { ownerships, type RevocationReason } from '#db/schema/shelf.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { type AuditActor, recordAudits } from '#domain/operations/audit.ts';

/** What a section gives its members, and no more: a purchase or a redeemed code stays. */
export const SECTION_GIVEN_SOURCES = ['course_fee', 'inclusive_access'] as const;

export type EndedMembership = {
  userId: number;
  sectionId: number;
  orgId: number;
  role: string;
  optStatus: string;
  isCourseFee: boolean;
};

/**
 * The shelf items these sections handed these people (course fee, inclusive access) end at
 * `at`, for `reason` (their enrolment ended, or their role no longer gets them); what they
 * bought or redeemed stays. How many ended.
 */
export async function revokeSectionGrants(
  tx: Queryable,
  members: readonly { userId: number; sectionId: number }[],
  at: Date,
  reason: Extract<RevocationReason, 'enrolmentEnded' | 'roleChanged'>,
): Promise<number> {
  if (members.length === 0) return 0;
  const pairs = JSON.stringify(members.map((m) => ({ u: m.userId, s: m.sectionId })));
  const revoked = await tx
    .update(ownerships)
    .set({ revokedAt: at, revokedReason: reason })
    .where(
      and(
        sql`(${ownerships.userId}, ${ownerships.courseSectionId}) in
          (select p.u, p.s from json_to_recordset(${pairs}::json) as p(u int, s int))`,
        inArray(ownerships.source, [...SECTION_GIVEN_SOURCES]),
        isNull(ownerships.revokedAt),
      ),
    )
    .returning({ id: ownerships.id });
  return revoked.length;
}

/**
 * Issue 39: an enrolment ends (the roster dropped it, or staff removed the person). What the
 * section gave goes — the member row, and with it the course-fee and inclusive-access reading,
 * the roster line, analytics and opt lists; the shelf items the section handed out are revoked
 * — while what the person bought or redeemed stays. The drop is kept for billing (a credit
 * line when it falls within the add/drop period) and audited. Call inside the transaction of
 * the change that ends it; null when there was no such member.
 */
export async function endMembership(
  tx: Queryable,
  actor: AuditActor,
  input: { memberId: number; at: Date; source: 'roster' | 'staff' },
): Promise<EndedMembership | null> {
  const [ended] = await endMemberships(tx, actor, {
    memberIds: [input.memberId],
    at: input.at,
    source: input.source,
  });
  return ended ?? null;
}

/**
 * The same for many enrolments at once, in a handful of statements whatever their number (a
 * roster delta ends hundreds; issue 39 asks a 1,000-row delta in 5 s). Ids of members that no
 * longer exist are skipped.
 */
export async function endMemberships(
  tx: Queryable,
  actor: AuditActor,
  input: { memberIds: readonly number[]; at: Date; source: 'roster' | 'staff' },
): Promise<EndedMembership[]> {
  if (input.memberIds.length === 0) return [];
  const members = await tx
    .select({
      id: sectionMembers.id,
      userId: sectionMembers.userId,
      sectionId: sectionMembers.sectionId,
      role: sectionMembers.role,
      optStatus: sectionMembers.optStatus,
      isCourseFee: sectionMembers.isCourseFee,
      rsCoursememberId: sectionMembers.rsCoursememberId,
      orgId: courses.orgId,
    })
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(inArray(sectionMembers.id, [...input.memberIds]))
    .orderBy(sectionMembers.id)
    .for('update', { of: sectionMembers });
  if (members.length === 0) return [];

  await tx.insert(sectionMemberDrops).values(
    members.map((m) => ({
      sectionId: m.sectionId,
      userId: m.userId,
      role: m.role,
      optStatus: m.optStatus,
      isCourseFee: m.isCourseFee,
      rsCoursememberId: m.rsCoursememberId,
      droppedAt: input.at,
      source: input.source,
    })),
  );
  await revokeSectionGrants(tx, members, input.at, 'enrolmentEnded');
  await tx.delete(sectionMembers).where(
    inArray(
      sectionMembers.id,
      members.map((m) => m.id),
    ),
  );
  await recordAudits(
    tx,
    actor,
    members.map((m) => ({
      orgId: m.orgId,
      objectType: 'section',
      objectId: m.sectionId,
      action: 'member.end',
      before: {
        userId: m.userId,
        role: m.role,
        optStatus: m.optStatus,
        isCourseFee: m.isCourseFee,
        source: input.source,
      },
      after: null,
    })),
    input.at,
  );
  // The people's cached accounts (instructor flags) and shelves are read again.
  forgetAccounts(members.map((m) => m.userId));
  return members.map((m) => ({
    userId: m.userId,
    sectionId: m.sectionId,
    orgId: m.orgId,
    role: m.role,
    optStatus: m.optStatus,
    isCourseFee: m.isCourseFee,
  }));
}
