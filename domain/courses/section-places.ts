import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { sectionInvitations } from '#db/schema/section-invitations.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import { SECTION_PLACE_KIND } from '#domain/notifications/section-place-email.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import {
  type PlaceAddressesOutcome,
  parsePlaceAddresses,
  sortPlaceAddresses,
} from './place-addresses.ts';
import { canManageSection, usesSectionTools } from './section-access.ts';

// Issue 20, the bookstore's section places: a bookstore manager (or a manager) puts students
// in a section by their e-mail addresses. An address an account has proved joins at once; any
// other is a place kept (`section_invitations`), taken when that address is proved
// (section-invitations.ts), and is mailed about it (section-place-email.ts). Rules: section-access.ts, place-addresses.ts.

import { PLACE_ROLES, type PlaceRole } from './place-addresses.ts';

export { PLACE_ROLES, type PlaceRole };

export type PlacesSection = {
  id: number;
  name: string;
  number: string | null;
  startDate: string;
  endDate: string;
  department: string;
  courseNumber: string;
  courseCode: string | null;
  courseName: string;
};

export type SectionPlace = {
  id: number;
  email: string;
  role: string;
  keptAt: Date;
  claimedAt: Date | null;
  /** The account that took the place; null while it is kept (or if that account is gone). */
  claimedBy: { firstName: string; lastName: string; email: string } | null;
};

export type SectionPlacesView = {
  section: PlacesSection;
  places: SectionPlace[];
  memberCount: number;
};

export type AddPlacesOutcome =
  | { ok: true; added: number; kept: number; already: number }
  | Exclude<PlaceAddressesOutcome, { ok: true }>;

export type RemovePlaceOutcome =
  | { ok: true; email: string }
  | { ok: false; problem: 'claimed' | 'gone' };

/**
 * The section, if this user may manage it. A role without the tool is Forbidden; a section
 * unknown or of another organisation is NotFound, the one as the other (issue 39).
 */
async function manageableSection(ctx: RequestContext, db: Queryable, sectionId: number) {
  if (!ctx.user) throw new Forbidden('error.loginRequired');
  if (!usesSectionTools(ctx.user)) throw new Forbidden();
  const [section] = await db
    .select({
      id: courseSections.id,
      name: courseSections.name,
      number: courseSections.number,
      startDate: courseSections.startDate,
      endDate: courseSections.endDate,
      addDropAt: courseSections.addDropAt,
      department: courses.department,
      courseNumber: courses.number,
      courseCode: courses.code,
      courseName: courses.name,
      orgId: courses.orgId,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  if (!section || !canManageSection(ctx.user, section.orgId)) throw new NotFound();
  return section;
}

/** Issue 20: the section, the places kept in it (newest first) and how many members it has. */
export async function sectionPlaces(
  ctx: RequestContext,
  sectionId: number,
): Promise<SectionPlacesView> {
  const {
    addDropAt: _addDropAt,
    orgId: _orgId,
    ...section
  } = await manageableSection(ctx, ctx.db, sectionId);
  const [rows, [members]] = await Promise.all([
    ctx.db
      .select({
        id: sectionInvitations.id,
        email: sectionInvitations.email,
        role: sectionInvitations.role,
        keptAt: sectionInvitations.createdAt,
        claimedAt: sectionInvitations.claimedAt,
        firstName: users.firstName,
        lastName: users.lastName,
        userEmail: users.email,
      })
      .from(sectionInvitations)
      .leftJoin(users, eq(users.id, sectionInvitations.claimedByUserId))
      .where(eq(sectionInvitations.sectionId, sectionId))
      .orderBy(desc(sectionInvitations.createdAt), asc(sectionInvitations.email)),
    ctx.db
      .select({ count: sql<number>`count(*)::int` })
      .from(sectionMembers)
      .where(eq(sectionMembers.sectionId, sectionId)),
  ]);
  return {
    section,
    memberCount: members?.count ?? 0,
    places: rows.map((row) => ({
      id: row.id,
      email: row.email,
      role: row.role,
      keptAt: row.keptAt,
      claimedAt: row.claimedAt,
      claimedBy:
        row.userEmail === null
          ? null
          : { firstName: row.firstName ?? '', lastName: row.lastName ?? '', email: row.userEmail },
    })),
  };
}

/**
 * Issue 20, "Add students by e-mail": in one transaction, each address an account has proved
 * becomes a member of the section now, each other one a kept place; an address already a
 * member or already kept counts as already there. A refused submission (empty, too many, a
 * bad address) writes nothing.
 */
export async function addSectionPlaces(
  ctx: RequestContext,
  sectionId: number,
  input: { text: string; role: PlaceRole },
): Promise<AddPlacesOutcome> {
  return ctx.db.transaction(async (tx): Promise<AddPlacesOutcome> => {
    const section = await manageableSection(ctx, tx, sectionId);
    const parsed = parsePlaceAddresses(input.text);
    if (!parsed.ok) return parsed;
    const { addresses } = parsed;
    const keys = addresses.map((a) => a.key);
    const accounts = await tx
      .select({ userId: users.id, key: users.email, verifiedAt: users.emailVerifiedAt })
      .from(users)
      .where(and(inArray(sql`lower(${users.email})`, keys), eq(users.isActive, true)));
    const { members, places } = sortPlaceAddresses(
      addresses,
      accounts.map((a) => ({ userId: a.userId, key: a.key, verified: a.verifiedAt !== null })),
    );
    let added = 0;
    if (members.length > 0) {
      const joined = await tx
        .insert(sectionMembers)
        .values(
          members.map((m) => ({
            sectionId,
            userId: m.userId,
            role: input.role,
            addDropDate: section.addDropAt,
            rsCoursememberId: `PLACE-${sectionId}-${m.userId}`,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: sectionMembers.id });
      added = joined.length;
      // A place kept earlier for one of these addresses is taken by its account now.
      const memberIds = members.map((m) => m.userId);
      await tx.execute(
        sql`update section_invitations si
               set claimed_at = ${ctx.now}, claimed_by_user_id = u.id
              from users u
             where u.id in (${sql.join(memberIds, sql`, `)})
               and lower(u.email) = lower(si.email)
               and si.section_id = ${sectionId} and si.claimed_at is null`,
      );
    }
    let kept = 0;
    if (places.length > 0) {
      const rows = await tx
        .insert(sectionInvitations)
        .values(
          places.map((p) => ({
            sectionId,
            email: p.address,
            role: input.role,
            addDropDate: section.addDropAt,
            createdAt: ctx.now,
          })),
        )
        .onConflictDoNothing()
        .returning({ id: sectionInvitations.id, email: sectionInvitations.email });
      kept = rows.length;
      // Each address told of its place, in this page's language, once the change is saved.
      for (const row of rows) {
        await enqueue(tx, {
          kind: SECTION_PLACE_KIND,
          dedupeKey: `${SECTION_PLACE_KIND}:${row.id}`,
          payload: { placeId: row.id, locale: ctx.locale },
          to: { userId: null, email: row.email },
        });
      }
    }
    return { ok: true, added, kept, already: addresses.length - added - kept };
  });
}

/**
 * Issue 20: a place still kept can be removed; one its student has taken cannot (they are a
 * member now), nor one that is no longer there.
 */
export async function removeSectionPlace(
  ctx: RequestContext,
  sectionId: number,
  placeId: number,
): Promise<RemovePlaceOutcome> {
  return ctx.db.transaction(async (tx): Promise<RemovePlaceOutcome> => {
    await manageableSection(ctx, tx, sectionId);
    const [removed] = await tx
      .delete(sectionInvitations)
      .where(
        and(
          eq(sectionInvitations.id, placeId),
          eq(sectionInvitations.sectionId, sectionId),
          isNull(sectionInvitations.claimedAt),
        ),
      )
      .returning({ email: sectionInvitations.email });
    if (removed) return { ok: true, email: removed.email };
    const [left] = await tx
      .select({ id: sectionInvitations.id })
      .from(sectionInvitations)
      .where(and(eq(sectionInvitations.id, placeId), eq(sectionInvitations.sectionId, sectionId)))
      .limit(1);
    return { ok: false, problem: left ? 'claimed' : 'gone' };
  });
}
