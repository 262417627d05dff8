import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { courseSections, courses, sectionMemberDrops, sectionMembers } from '#db/schema/courses.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { type AuditActor, recordAudit } from '#domain/operations/audit.ts';

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
  const [member] = await tx
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
    .where(eq(sectionMembers.id, input.memberId))
    .for('update', { of: sectionMembers });
  if (!member) return null;

  await tx.insert(sectionMemberDrops).values({
    sectionId: member.sectionId,
    userId: member.userId,
    role: member.role,
    optStatus: member.optStatus,
    isCourseFee: member.isCourseFee,
    rsCoursememberId: member.rsCoursememberId,
    droppedAt: input.at,
    source: input.source,
  });
  await tx
    .update(ownerships)
    .set({ revokedAt: input.at })
    .where(
      and(
        eq(ownerships.userId, member.userId),
        eq(ownerships.courseSectionId, member.sectionId),
        inArray(ownerships.source, [...SECTION_GIVEN_SOURCES]),
        isNull(ownerships.revokedAt),
      ),
    );
  await tx.delete(sectionMembers).where(eq(sectionMembers.id, member.id));
  await recordAudit(
    tx,
    actor,
    {
      orgId: member.orgId,
      objectType: 'section',
      objectId: member.sectionId,
      action: 'member.end',
      before: {
        userId: member.userId,
        role: member.role,
        optStatus: member.optStatus,
        isCourseFee: member.isCourseFee,
        source: input.source,
      },
      after: null,
    },
    input.at,
  );
  // The person's cached account (instructor flags) and shelf are read again.
  forgetAccounts([member.userId]);
  return {
    userId: member.userId,
    sectionId: member.sectionId,
    orgId: member.orgId,
    role: member.role,
    optStatus: member.optStatus,
    isCourseFee: member.isCourseFee,
  };
}
