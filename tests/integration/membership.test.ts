import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMemberDrops, sectionMembers } from '#db/schema/courses.ts';
import { auditEvents } from '#db/schema/operations.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { endMembership } from '#domain/courses/membership.ts';
import { systemActor } from '#domain/operations/audit.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, unique } from '#tests/database.ts';

// Issue 39: an enrolment that ends removes what the section gave and keeps what the person
// bought; the drop is kept for billing and audited.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const at = new Date('2026-09-01T14:00:00Z');

describe('endMembership (issue 39)', () => {
  it('revokes the course-fee copy, keeps the purchase, records the drop and the audit', async () => {
    const db = database.db;
    const [org] = await db
      .insert(organizations)
      .values({ title: unique('Campus') })
      .returning({ id: organizations.id });
    const [course] = await db
      .insert(courses)
      .values({ orgId: org!.id, name: 'Biology', department: 'BIO', number: '101' })
      .returning({ id: courses.id });
    const [section] = await db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'BIO 101 - 001',
        rsCourseId: unique('RS'),
        startDate: '2026-08-25',
        endDate: '2026-12-15',
        addDropAt: new Date('2026-09-08T04:00:00Z'),
        courseFeeCents: 7900,
      })
      .returning({ id: courseSections.id });
    const [user] = await db
      .insert(users)
      .values({ email: `${unique('drop')}@example.test` })
      .returning({ id: users.id });
    const [member] = await db
      .insert(sectionMembers)
      .values({
        sectionId: section!.id,
        userId: user!.id,
        role: 'student',
        isCourseFee: true,
        addDropDate: new Date('2026-09-08T04:00:00Z'),
        rsCoursememberId: unique('EN'),
      })
      .returning({ id: sectionMembers.id });
    const given = await insertProduct(db);
    const bought = await insertProduct(db);
    await db.insert(ownerships).values([
      { userId: user!.id, productId: given, source: 'course_fee', courseSectionId: section!.id },
      { userId: user!.id, productId: bought, source: 'purchase', courseSectionId: section!.id },
    ]);

    const ended = await db.transaction((tx) =>
      endMembership(tx, systemActor('roster import'), {
        memberId: member!.id,
        at,
        source: 'roster',
      }),
    );
    expect(ended).toMatchObject({ userId: user!.id, sectionId: section!.id, isCourseFee: true });

    expect(
      await db.select().from(sectionMembers).where(eq(sectionMembers.id, member!.id)),
    ).toHaveLength(0);
    const shelf = await db
      .select({
        productId: ownerships.productId,
        revokedAt: ownerships.revokedAt,
        revokedReason: ownerships.revokedReason,
      })
      .from(ownerships)
      .where(eq(ownerships.userId, user!.id));
    expect(shelf.find((o) => o.productId === given)?.revokedAt).toEqual(at);
    // Its reason, for the help desk (migration 0048).
    expect(shelf.find((o) => o.productId === given)?.revokedReason).toBe('enrolmentEnded');
    expect(shelf.find((o) => o.productId === bought)?.revokedAt).toBeNull();

    const [drop] = await db
      .select()
      .from(sectionMemberDrops)
      .where(eq(sectionMemberDrops.userId, user!.id));
    expect(drop).toMatchObject({
      sectionId: section!.id,
      optStatus: 'opted_in',
      isCourseFee: true,
      droppedAt: at,
      source: 'roster',
    });
    const [audit] = await db
      .select()
      .from(auditEvents)
      .where(
        and(eq(auditEvents.objectType, 'section'), eq(auditEvents.objectId, String(section!.id))),
      );
    expect(audit).toMatchObject({
      action: 'member.end',
      actorLabel: 'roster import',
      orgId: org!.id,
    });

    // Ending it again finds nothing and changes nothing.
    expect(
      await endMembership(db, systemActor('roster import'), {
        memberId: member!.id,
        at,
        source: 'roster',
      }),
    ).toBeNull();
  });
});
