import { and, asc, desc, eq, inArray, ne } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings, productIdentifiers, products } from '#db/schema/catalog.ts';
import {
  courseSections,
  courses,
  optChanges,
  sectionMembers,
  sectionProducts,
} from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { shownIsbn } from '#domain/catalog/shown-isbn.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, Invalid, NotFound } from '#domain/shared/errors.ts';
import { courseSectionView } from '#domain/shelf/course-section.ts';
import { dayIn } from '#domain/shelf/sections.ts';
import { restoreInclusiveAccess, revokeInclusiveAccess } from '#domain/shelf/service.ts';
import { type CourseFeeSummary, courseFeeSummary } from './course-fee-summary.ts';
import { type OptOutFeedback, optOutFeedbackProblem } from './opt-out-feedback.ts';
import {
  deadlineText,
  isOptStatus,
  type OptRefusal,
  type OptStatus,
  optMoveRefusal,
} from './opting.ts';
import { type PartnerHandoff, partnerHandoff } from './partner-handoff.ts';
import { canManageSection, usesSectionTools } from './section-access.ts';

// Opting in and out (spec 1 §4 Opting; spec 2 §4, §7 Opt out / Opt in), the partner
// hand-off look-up (spec 2 §7 Follett-style handoff) and the bookstore manager's opt-status
// download. The rules are in opting.ts, opt-out-feedback.ts and partner-handoff.ts.

/** A member as the API answers it (spec 1 §3 Section member). */
export type MemberDocument = {
  id: number;
  sectionId: number;
  role: string;
  optStatus: OptStatus;
  canUpdateOptStatus: boolean;
  isCourseFee: boolean;
  addDropDate: Date;
  rsCoursememberId: string;
};

export type OptOutcome = { ok: true; member: MemberDocument } | { ok: false; refusal: OptRefusal };

function requireUser(ctx: RequestContext) {
  if (!ctx.user) throw new Forbidden('error.loginRequired');
  return ctx.user;
}

/** The user's own member row, locked for the change; anyone else's reads as not found. */
async function ownMemberForUpdate(db: Queryable, userId: number, memberId: number) {
  const [locked] = await db
    .select({ id: sectionMembers.id })
    .from(sectionMembers)
    .where(and(eq(sectionMembers.id, memberId), eq(sectionMembers.userId, userId)))
    .for('update');
  if (!locked) throw new NotFound();
  const [row] = await db
    .select({
      member: {
        id: sectionMembers.id,
        sectionId: sectionMembers.sectionId,
        role: sectionMembers.role,
        optStatus: sectionMembers.optStatus,
        canUpdateOptStatus: sectionMembers.canUpdateOptStatus,
        isCourseFee: sectionMembers.isCourseFee,
        addDropDate: sectionMembers.addDropDate,
        rsCoursememberId: sectionMembers.rsCoursememberId,
      },
      section: {
        optingMethod: courseSections.optingMethod,
        disableAutoProvisioning: courseSections.disableAutoProvisioning,
      },
      org: {
        isCdsEnabled: organizations.isCdsEnabled,
        isBookstorePartner: organizations.isBookstorePartner,
      },
    })
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(organizations, eq(organizations.id, courses.orgId))
    .where(eq(sectionMembers.id, locked.id))
    .limit(1);
  if (!row || !isOptStatus(row.member.optStatus)) throw new NotFound();
  return { ...row, member: { ...row.member, optStatus: row.member.optStatus } };
}

/**
 * Moves the user's membership to `to`, if the guard allows it: the status, the change record
 * (time, actor, reason) and the inclusive-access reading move in one transaction. Opting out
 * revokes the section's inclusive-access ownerships; opting in grants again those the last
 * opt-out took.
 */
async function changeOptStatus(
  ctx: RequestContext,
  memberId: number,
  to: OptStatus,
  feedback: { reason: number; message: string } | null,
): Promise<OptOutcome> {
  const user = requireUser(ctx);
  const outcome = await ctx.db.transaction(async (tx): Promise<OptOutcome> => {
    const { member, section, org } = await ownMemberForUpdate(tx, user.id, memberId);
    const refusal = optMoveRefusal({ member, section, org, to, now: ctx.now });
    if (refusal) return { ok: false, refusal };
    const inTx: RequestContext = { ...ctx, db: tx };
    if (to === 'opted_out') {
      await revokeInclusiveAccess(inTx, { userId: user.id, sectionId: member.sectionId });
    } else {
      const [lastOptOut] = await tx
        .select({ changedAt: optChanges.changedAt })
        .from(optChanges)
        .where(and(eq(optChanges.memberId, member.id), eq(optChanges.toStatus, 'opted_out')))
        .orderBy(desc(optChanges.changedAt), desc(optChanges.id))
        .limit(1);
      if (lastOptOut) {
        await restoreInclusiveAccess(inTx, {
          userId: user.id,
          sectionId: member.sectionId,
          revokedAt: lastOptOut.changedAt,
        });
      }
    }
    await tx.update(sectionMembers).set({ optStatus: to }).where(eq(sectionMembers.id, member.id));
    const [change] = await tx
      .insert(optChanges)
      .values({
        memberId: member.id,
        actorUserId: user.id,
        fromStatus: member.optStatus,
        toStatus: to,
        reason: feedback?.reason ?? null,
        message: feedback?.message || null,
        changedAt: ctx.now,
      })
      .returning({ id: optChanges.id });
    // The student's confirmation leaves with the change or not at all (outbox, issue 19).
    await enqueue(tx, {
      kind: 'opting-confirmation',
      dedupeKey: `opting-confirmation:${change!.id}`,
      payload: { optChangeId: change!.id },
      to: { userId: user.id },
    });
    return { ok: true, member: { ...member, optStatus: to } };
  });
  // Ownerships, course-fee materials and sessions this process keeps for the user are stale.
  if (outcome.ok) forgetAccounts([user.id]);
  return outcome;
}

/**
 * Opt out (spec 2 §7: the member call with selected_reason and message). The feedback is
 * checked as the dialog checks it (spec 1 §5); an invalid one is a 400.
 */
export async function optOut(
  ctx: RequestContext,
  memberId: number,
  feedback: OptOutFeedback,
): Promise<OptOutcome> {
  requireUser(ctx);
  const problem = optOutFeedbackProblem(feedback);
  if (problem !== null || feedback.reason === null) throw new Invalid(problem ?? undefined);
  return changeOptStatus(ctx, memberId, 'opted_out', {
    reason: feedback.reason,
    message: feedback.message.trim(),
  });
}

/** Opt in (spec 2 §7: the member call, no attributes). */
export async function optIn(ctx: RequestContext, memberId: number): Promise<OptOutcome> {
  return changeOptStatus(ctx, memberId, 'opted_in', null);
}

/** What the student decides on, where they decide it (issue 19, "Opting blind"). */
export type OptingFacts = {
  fee: CourseFeeSummary;
  /** The deadline's date, time and the course's time zone, in the request's language. */
  deadline: string;
  /** The member's latest opt change, when there is one, in the course's time zone. */
  lastChange: { toStatus: OptStatus; at: string } | null;
};

/**
 * The course fee, what it includes, the price of the same materials bought separately, the
 * deadline with its time and zone, and the member's latest change: the opting banner's Learn
 * More, the dialog's details step and its status line (issue 19). Members only.
 */
export async function optingFacts(ctx: RequestContext, sectionId: number): Promise<OptingFacts> {
  const user = requireUser(ctx);
  const [row] = await ctx.db
    .select({
      memberId: sectionMembers.id,
      addDropDate: sectionMembers.addDropDate,
      feeCents: courseSections.courseFeeCents,
      timeZone: courseSections.timeZone,
    })
    .from(sectionMembers)
    .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.userId, user.id)))
    .limit(1);
  if (!row) throw new NotFound();
  const materials = await ctx.db
    .select({
      productId: products.id,
      title: products.title,
      productType: products.productType,
      status: products.status,
      isDisabled: products.isDisabled,
    })
    .from(sectionProducts)
    .innerJoin(products, eq(products.id, sectionProducts.productId))
    .where(and(eq(sectionProducts.sectionId, sectionId), ne(products.status, 'deleted')))
    .orderBy(asc(sectionProducts.position), asc(sectionProducts.id));
  const offered =
    materials.length === 0
      ? []
      : await ctx.db
          .select({
            productId: offerings.productId,
            type: offerings.type,
            priceCents: offerings.priceCents,
            currencyCode: offerings.currencyCode,
          })
          .from(offerings)
          .where(
            and(
              inArray(
                offerings.productId,
                materials.map((m) => m.productId),
              ),
              eq(offerings.isActive, true),
            ),
          );
  const fee = courseFeeSummary({
    feeCents: row.feeCents,
    materials: materials.map((m) => ({
      productId: m.productId,
      title: m.title,
      productType: m.productType,
      sellable: m.status === 'active' && !m.isDisabled,
      offerings: offered.filter((o) => o.productId === m.productId),
    })),
  });
  const [last] = await ctx.db
    .select({ toStatus: optChanges.toStatus, changedAt: optChanges.changedAt })
    .from(optChanges)
    .where(eq(optChanges.memberId, row.memberId))
    .orderBy(desc(optChanges.changedAt), desc(optChanges.id))
    .limit(1);
  return {
    fee,
    deadline: deadlineText(row.addDropDate, row.timeZone, ctx.locale),
    lastChange:
      last && isOptStatus(last.toStatus)
        ? { toStatus: last.toStatus, at: deadlineText(last.changedAt, row.timeZone, ctx.locale) }
        : null,
  };
}

/**
 * The Follett-style look-up (spec 2 §7): for a member of the section in a bookstore-partner
 * organisation, the store URL and the form fields naming the course and the materials the
 * course section page offers them with Buy Now. Members only; anything else reads as not
 * found.
 */
export async function partnerHandoffFor(
  ctx: RequestContext,
  rsCourseId: string,
): Promise<PartnerHandoff> {
  const user = requireUser(ctx);
  const [row] = await ctx.db
    .select({
      sectionId: courseSections.id,
      sectionNumber: courseSections.number,
      department: courses.department,
      courseNumber: courses.number,
      isBookstorePartner: organizations.isBookstorePartner,
      partnerStoreUrl: organizations.partnerStoreUrl,
      rsCoursememberId: sectionMembers.rsCoursememberId,
    })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .innerJoin(organizations, eq(organizations.id, courses.orgId))
    .innerJoin(
      sectionMembers,
      and(eq(sectionMembers.sectionId, courseSections.id), eq(sectionMembers.userId, user.id)),
    )
    .where(eq(courseSections.rsCourseId, rsCourseId))
    .limit(1);
  if (!row || !row.isBookstorePartner) throw new NotFound();
  // The materials the page offers with Buy Now (one rule: isPartnerCandidate), no others.
  const view = await courseSectionView(ctx, row.sectionId, dayIn(ctx.now, user.timeZone));
  const isbns = await shownIsbns(
    ctx,
    view.partner.candidates.map((candidate) => candidate.productId),
  );
  const handoff = partnerHandoff({
    storeUrl: row.partnerStoreUrl,
    rsCourseId,
    rsCoursememberId: row.rsCoursememberId,
    department: row.department,
    courseNumber: row.courseNumber,
    sectionNumber: row.sectionNumber,
    isbns,
  });
  if (!handoff) throw new NotFound();
  return handoff;
}

/** The shown ISBN of each product, in the order given (products without one are left out). */
async function shownIsbns(ctx: RequestContext, productIds: readonly number[]): Promise<string[]> {
  if (productIds.length === 0) return [];
  const identifiers = await ctx.db
    .select({
      productId: productIdentifiers.productId,
      type: productIdentifiers.type,
      value: productIdentifiers.value,
    })
    .from(productIdentifiers)
    .innerJoin(products, eq(products.id, productIdentifiers.productId))
    .where(
      and(inArray(productIdentifiers.productId, [...productIds]), ne(products.status, 'deleted')),
    )
    .orderBy(asc(productIdentifiers.productId));
  return productIds
    .map((id) => shownIsbn(identifiers.filter((i) => i.productId === id)))
    .filter((isbn): isbn is string => isbn !== null);
}

/** One student of the download: their latest change, if any (issue 6). */
export type OptStatusEntry = {
  rsCoursememberId: string;
  firstName: string;
  lastName: string;
  email: string;
  optStatus: string;
  reason: number | null;
  message: string | null;
  changedAt: Date | null;
  changedBy: string | null;
};

/**
 * Who in a section is opted in or out, with the reason of their latest change. Managers see
 * every section; bookstore managers the sections of their own organisation; others none.
 */
export async function sectionOptStatus(
  ctx: RequestContext,
  sectionId: number,
): Promise<{ rsCourseId: string; entries: OptStatusEntry[] }> {
  const user = requireUser(ctx);
  if (!usesSectionTools(user)) throw new Forbidden();
  const [section] = await ctx.db
    .select({ rsCourseId: courseSections.rsCourseId, orgId: courses.orgId })
    .from(courseSections)
    .innerJoin(courses, eq(courses.id, courseSections.courseId))
    .where(eq(courseSections.id, sectionId))
    .limit(1);
  // Another organisation's section is not found, as an unknown id is (issue 39).
  if (!section || !canManageSection(user, section.orgId)) throw new NotFound();
  const latest = ctx.db
    .selectDistinctOn([optChanges.memberId], {
      memberId: optChanges.memberId,
      reason: optChanges.reason,
      message: optChanges.message,
      changedAt: optChanges.changedAt,
      actorUserId: optChanges.actorUserId,
    })
    .from(optChanges)
    .orderBy(optChanges.memberId, desc(optChanges.changedAt), desc(optChanges.id))
    .as('latest');
  const actors = alias(users, 'actors');
  const rows = await ctx.db
    .select({
      rsCoursememberId: sectionMembers.rsCoursememberId,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      optStatus: sectionMembers.optStatus,
      reason: latest.reason,
      message: latest.message,
      changedAt: latest.changedAt,
      changedBy: actors.email,
    })
    .from(sectionMembers)
    .innerJoin(users, eq(users.id, sectionMembers.userId))
    .leftJoin(latest, eq(latest.memberId, sectionMembers.id))
    .leftJoin(actors, eq(actors.id, latest.actorUserId))
    .where(and(eq(sectionMembers.sectionId, sectionId), eq(sectionMembers.role, 'student')))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(sectionMembers.id));
  return { rsCourseId: section.rsCourseId, entries: rows };
}
