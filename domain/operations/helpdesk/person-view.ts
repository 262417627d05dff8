import { and, desc, eq, gt, inArray, or, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { accessCodes, redeemCodes } from '#db/schema/access.ts';
import { accountFlags, sessions, userRoles, users } from '#db/schema/accounts.ts';
import { campusIdentities } from '#db/schema/campus-sign-in.ts';
import { products } from '#db/schema/catalog.ts';
import { orders } from '#db/schema/commerce.ts';
import { courseSections, courses, sectionMembers } from '#db/schema/courses.ts';
import { outbox } from '#db/schema/events.ts';
import { campusPeople } from '#db/schema/operations.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { describeDevice } from '#domain/accounts/device.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { orderDisplayFacts } from '#domain/commerce/order-display-facts.ts';
import { type DisplayStatus, displayStatus } from '#domain/commerce/order-display-status.ts';
import { orderNumber } from '#domain/commerce/order-number.ts';
import type { OrderStatus } from '#domain/commerce/order-status.ts';
import { type AuditLine, auditTrail } from '#domain/operations/audit.ts';
import { inOrgScope, type OrgScope, orgScopeOf } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import { type OwnershipEnd, ownershipEnd } from '#domain/shelf/ownership-end.ts';
import { sectionTitle } from '#domain/shelf/sections.ts';
import { canSwitchTo } from './impersonation.ts';
import {
  type AccountChange,
  accountChangeRefusal,
  GRANTABLE_ROLES,
  type GrantableRole,
  type PersonOrgs,
  personInScope,
} from './people-scope.ts';

// Issue 39, the help desk's person page: who the person is and everything the help desk
// needs to help them, within the staff member's scope. A person outside it is not found.

export type PersonAccount = {
  id: number;
  email: string;
  firstName: string;
  lastName: string;
  orgId: number | null;
  orgName: string | null;
  isActive: boolean;
  emailVerified: boolean;
  createdAt: Date;
  roles: string[];
};

export type PersonView = {
  person: PersonAccount;
  campusIds: { campusId: string; source: 'roster' | 'campusSignIn' }[];
  sections: {
    id: number;
    /** Department, course number and section number, as the store titles a section. */
    title: { course: string; section: string | null };
    sectionName: string;
    role: string;
    optStatus: string;
    isCourseFee: boolean;
    courseFeeCents: number | null;
  }[];
  ownerships: {
    id: number;
    productTitle: string;
    source: string;
    startsAt: Date;
    expiresAt: Date | null;
    /** Active, or why not: revoked (with its reason), expired, not started yet. */
    end: OwnershipEnd;
  }[];
  orders: {
    id: string;
    /** The number the buyer's order page and receipt show (orderNumber). */
    number: string;
    /** The state the buyer's order page shows, refunds counted (displayStatus). */
    status: DisplayStatus;
    totalCents: number;
    currencyCode: string;
    createdAt: Date;
  }[];
  codes: {
    kind: 'redeem' | 'access';
    productTitle: string;
    last4: string | null;
    at: Date | null;
    /** An access code revoked by the refund of the order line that gave it. */
    revoked: boolean;
  }[];
  devices: {
    browser: string | null;
    system: string | null;
    signedInAt: Date;
    lastSeenAt: Date;
    switchAccount: boolean;
  }[];
  mails: { id: number; kind: string; to: string; queuedAt: Date; sentAt: Date | null }[];
  audit: AuditLine[];
  /** Names of the accounts the audit's lines acted as, by id. */
  actingAsNames: Record<number, string>;
  /** What the viewer may do here (the actions ask the same rules). */
  can: {
    lock: boolean;
    mail: boolean;
    changeRoles: boolean;
    grantableRoles: GrantableRole[];
    switchTo: boolean;
  };
};

const LIST_LIMIT = 100;

/** A section of the scope: an organisation the staff member sees (or any, for a manager). */
function sectionScopeWhere(scope: OrgScope) {
  return scope.kind === 'all' ? undefined : inArray(courses.orgId, [...scope.orgIds, -1]);
}

/** The organisations a person belongs to, as the scope rule asks them. */
async function personOrgs(
  db: Queryable,
  userId: number,
  orgId: number | null,
): Promise<PersonOrgs> {
  const [campus, sectionOrgs] = await Promise.all([
    db
      .select({ orgId: campusPeople.orgId })
      .from(campusPeople)
      .where(eq(campusPeople.userId, userId)),
    db
      .selectDistinct({ orgId: courses.orgId })
      .from(sectionMembers)
      .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
      .innerJoin(courses, eq(courses.id, courseSections.courseId))
      .where(eq(sectionMembers.userId, userId)),
  ]);
  return {
    orgId,
    campusOrgIds: campus.map((r) => r.orgId),
    sectionOrgIds: sectionOrgs.map((r) => r.orgId),
  };
}

/**
 * The account of the help desk's scope with this id, with its roles; NotFound for an id that
 * does not exist and for a person outside the scope alike (issue 39).
 */
export async function personInScopeOf(
  db: Queryable,
  staff: SessionUser,
  userId: number,
): Promise<PersonAccount> {
  const [row] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      orgId: users.orgId,
      orgName: organizations.title,
      isActive: users.isActive,
      emailVerifiedAt: users.emailVerifiedAt,
      createdAt: users.createdAt,
      roles: sql<
        string[]
      >`array(select ${userRoles.role} from ${userRoles} where ${userRoles.userId} = ${users.id} order by 1)`,
    })
    .from(users)
    .leftJoin(organizations, eq(organizations.id, users.orgId))
    .where(eq(users.id, userId))
    .limit(1);
  if (!row) throw new NotFound('ops.helpdesk.error.notFound');
  if (!personInScope(orgScopeOf(staff), await personOrgs(db, row.id, row.orgId))) {
    throw new NotFound('ops.helpdesk.error.notFound');
  }
  const { emailVerifiedAt, ...person } = row;
  return { ...person, emailVerified: emailVerifiedAt !== null };
}

/** Whether the staff member may make this change to this person (the page and the action). */
export function mayChange(
  staff: SessionUser,
  person: PersonAccount,
  change: AccountChange,
): boolean {
  return accountChangeRefusal(staff, person, change) === null;
}

async function canImpersonate(db: Queryable, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ canImpersonate: accountFlags.canImpersonate })
    .from(accountFlags)
    .where(eq(accountFlags.userId, userId));
  return row?.canImpersonate ?? false;
}

/** Whether this staff member may switch to this person now (page and action alike). */
export async function switchActor(db: Queryable, staff: SessionUser) {
  return {
    id: staff.id,
    roles: staff.roles,
    canImpersonate: await canImpersonate(db, staff.id),
    isImpersonating: staff.isImpersonating,
  };
}

export async function personView(ctx: RequestContext, userId: number): Promise<PersonView> {
  const staff = ctx.user;
  if (!staff) throw new Forbidden('error.loginRequired');
  const db = ctx.db;
  const person = await personInScopeOf(db, staff, userId);
  const scope = orgScopeOf(staff);
  const sectionScope = sectionScopeWhere(scope);
  const [campusRows, identityRows, sectionRows, ownershipRows, orderRows, redeemRows, accessRows] =
    await Promise.all([
      db
        .select({ campusId: campusPeople.campusId, orgId: campusPeople.orgId })
        .from(campusPeople)
        .where(eq(campusPeople.userId, userId)),
      db
        .select({ campusId: campusIdentities.campusId })
        .from(campusIdentities)
        .where(eq(campusIdentities.userId, userId)),
      db
        .select({
          id: courseSections.id,
          department: courses.department,
          number: courses.number,
          sectionNumber: courseSections.number,
          code: courses.code,
          sectionName: courseSections.name,
          role: sectionMembers.role,
          optStatus: sectionMembers.optStatus,
          isCourseFee: sectionMembers.isCourseFee,
          courseFeeCents: courseSections.courseFeeCents,
        })
        .from(sectionMembers)
        .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
        .innerJoin(courses, eq(courses.id, courseSections.courseId))
        .where(and(eq(sectionMembers.userId, userId), sectionScope))
        .orderBy(desc(courseSections.startDate), courses.department, courses.number)
        .limit(LIST_LIMIT),
      // Ownerships a section of another campus gave are that campus's, not shown here.
      db
        .select({
          id: ownerships.id,
          productTitle: products.title,
          source: ownerships.source,
          startsAt: ownerships.startsAt,
          expiresAt: ownerships.expiresAt,
          revokedAt: ownerships.revokedAt,
          revokedReason: ownerships.revokedReason,
        })
        .from(ownerships)
        .innerJoin(products, eq(products.id, ownerships.productId))
        .leftJoin(courseSections, eq(courseSections.id, ownerships.courseSectionId))
        .leftJoin(courses, eq(courses.id, courseSections.courseId))
        .where(
          and(
            eq(ownerships.userId, userId),
            sectionScope ? or(sql`${ownerships.courseSectionId} is null`, sectionScope) : undefined,
          ),
        )
        .orderBy(desc(ownerships.createdAt))
        .limit(LIST_LIMIT),
      db
        .select({
          id: orders.id,
          status: orders.status,
          totalCents: orders.totalCents,
          currencyCode: orders.currencyCode,
          createdAt: orders.createdAt,
        })
        .from(orders)
        .leftJoin(courseSections, eq(courseSections.id, orders.courseSectionId))
        .leftJoin(courses, eq(courses.id, courseSections.courseId))
        .where(
          and(
            eq(orders.userId, userId),
            sectionScope ? or(sql`${orders.courseSectionId} is null`, sectionScope) : undefined,
          ),
        )
        .orderBy(desc(orders.createdAt))
        .limit(LIST_LIMIT),
      db
        .select({
          productTitle: products.title,
          last4: redeemCodes.codeLast4,
          at: redeemCodes.redeemedAt,
        })
        .from(redeemCodes)
        .innerJoin(products, eq(products.id, redeemCodes.productId))
        .where(eq(redeemCodes.redeemedByUserId, userId))
        .orderBy(desc(redeemCodes.redeemedAt))
        .limit(LIST_LIMIT),
      db
        .select({
          productTitle: products.title,
          at: accessCodes.assignedAt,
          revokedAt: accessCodes.revokedAt,
        })
        .from(accessCodes)
        .innerJoin(products, eq(products.id, accessCodes.productId))
        .where(eq(accessCodes.assignedUserId, userId))
        .orderBy(desc(accessCodes.assignedAt))
        .limit(LIST_LIMIT),
    ]);
  const [deviceRows, mails, audit, orderFacts] = await Promise.all([
    db
      .select({
        userAgent: sessions.userAgent,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        impersonatorId: sessions.impersonatorId,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), gt(sessions.expiresAt, ctx.now)))
      .orderBy(desc(sessions.lastSeenAt))
      .limit(LIST_LIMIT),
    mailsSentTo(db, person),
    auditTrail(db, 'user', userId),
    orderDisplayFacts(
      db,
      orderRows.map((row) => row.id),
    ),
  ]);
  const actingAsNames: Record<number, string> = {};
  for (const line of audit) {
    if (line.actingAsUserId === userId) {
      actingAsNames[userId] = `${person.firstName} ${person.lastName}`.trim() || person.email;
    }
  }
  const unknownActingAs = [
    ...new Set(audit.map((l) => l.actingAsUserId).filter((id): id is number => id !== null)),
  ].filter((id) => !(id in actingAsNames));
  if (unknownActingAs.length > 0) {
    const named = await db
      .select({
        id: users.id,
        email: users.email,
        firstName: users.firstName,
        lastName: users.lastName,
      })
      .from(users)
      .where(inArray(users.id, unknownActingAs));
    for (const u of named) actingAsNames[u.id] = `${u.firstName} ${u.lastName}`.trim() || u.email;
  }
  const isManager = staff.roles.includes('manager');
  return {
    person,
    campusIds: [
      ...campusRows
        .filter((r) => r.campusId !== null && inOrgScope(scope, r.orgId))
        .map((r) => ({ campusId: r.campusId!, source: 'roster' as const })),
      ...identityRows
        .filter((r) => r.campusId !== null)
        .map((r) => ({ campusId: r.campusId!, source: 'campusSignIn' as const })),
    ],
    sections: sectionRows.map(({ department, number, code, sectionNumber, ...row }) => ({
      ...row,
      title: sectionTitle({ department, courseNumber: number, courseCode: code, sectionNumber }),
    })),
    ownerships: ownershipRows.map(({ revokedAt, revokedReason, ...row }) => ({
      ...row,
      end: ownershipEnd({ ...row, revokedAt, revokedReason }, ctx.now),
    })),
    orders: orderRows.map((row) => {
      const facts = orderFacts.get(row.id)!;
      return {
        ...row,
        number: orderNumber(row.id),
        status: displayStatus(
          { status: row.status as OrderStatus, totalCents: row.totalCents },
          facts.payments,
          facts.lineRefunds,
        ),
      };
    }),
    codes: [
      ...redeemRows.map((r) => ({ kind: 'redeem' as const, revoked: false, ...r })),
      ...accessRows.map(({ revokedAt, ...r }) => ({
        kind: 'access' as const,
        last4: null,
        revoked: revokedAt !== null,
        ...r,
      })),
    ],
    devices: deviceRows.map((row) => ({
      ...describeDevice(row.userAgent),
      signedInAt: row.createdAt,
      lastSeenAt: row.lastSeenAt,
      switchAccount: row.impersonatorId !== null,
    })),
    mails,
    audit,
    actingAsNames,
    can: {
      lock: mayChange(staff, person, person.isActive ? 'lock' : 'unlock'),
      mail: mayChange(staff, person, 'mail') && person.isActive,
      changeRoles: isManager && mayChange(staff, person, 'role'),
      grantableRoles: [...GRANTABLE_ROLES],
      switchTo: canSwitchTo(await switchActor(db, staff), { ...person }),
    },
  };
}

/**
 * The mails queued for the person (kind, address, when queued and sent): those for their
 * account, and those to their address before it was theirs (a kept section place), by whom
 * each was for when it was queued (outbox.recipient_*, migration 0044). Never the payload
 * itself: it may hold a secret link.
 */
async function mailsSentTo(db: Queryable, person: PersonAccount): Promise<PersonView['mails']> {
  const rows = await db
    .select({
      id: outbox.id,
      kind: outbox.kind,
      to: outbox.recipientEmail,
      queuedAt: outbox.createdAt,
      sentAt: outbox.sentAt,
    })
    .from(outbox)
    .where(
      or(
        eq(outbox.recipientUserId, person.id),
        eq(outbox.recipientEmail, person.email.toLowerCase()),
      ),
    )
    .orderBy(desc(outbox.id))
    .limit(LIST_LIMIT);
  return rows.map((row) => ({ ...row, to: row.to ?? person.email }));
}
