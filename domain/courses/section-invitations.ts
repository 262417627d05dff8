import { and, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { sectionMembers } from '#db/schema/courses.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';

/**
 * Issue 20: a verified address is how a new account finds the sections the bookstore put it
 * in. The places kept for this address become the account's memberships, once, in the
 * caller's transaction (the one that proves the address). Returns how many it took.
 */
export async function claimSectionInvitations(
  db: Queryable,
  input: { userId: number; email: string; now: Date },
): Promise<number> {
  const claimed = await db
    .update(sectionInvitations)
    .set({ claimedAt: input.now, claimedByUserId: input.userId })
    .where(
      and(
        sql`lower(${sectionInvitations.email}) = lower(${input.email})`,
        isNull(sectionInvitations.claimedAt),
      ),
    )
    .returning({
      id: sectionInvitations.id,
      sectionId: sectionInvitations.sectionId,
      role: sectionInvitations.role,
      addDropDate: sectionInvitations.addDropDate,
    });
  if (claimed.length === 0) return 0;
  await db
    .insert(sectionMembers)
    .values(
      claimed.map((row) => ({
        sectionId: row.sectionId,
        userId: input.userId,
        role: row.role,
        addDropDate: row.addDropDate,
        rsCoursememberId: `INV-${row.id}`,
      })),
    )
    .onConflictDoNothing();
  return claimed.length;
}
