import { and, count, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { redeemAttempts } from '#db/schema/access.ts';
import { accountFlags, loginAttempts, sessions, userRoles, users } from '#db/schema/accounts.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { classroomNotes } from '#db/schema/classroom.ts';
import { carts, orderItems, orders, payments } from '#db/schema/commerce.ts';
import { courseSections, sectionMembers } from '#db/schema/courses.ts';
import { analyticsEvents, outbox } from '#db/schema/events.ts';
import { ltiLaunches } from '#db/schema/launch.ts';
import { deletedAccounts, privacyRequests } from '#db/schema/privacy.ts';
import {
  readerSettings,
  readingAllowances,
  readingAnnotations,
  readingEvents,
  readingPositions,
} from '#db/schema/reading.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { orderNumber } from '#domain/commerce/order-number.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Conflict, Forbidden, NotFound, TooManyRequests } from '#domain/shared/errors.ts';
import {
  ACCOUNT_DATA_FATE,
  mayPurgeOrder,
  retentionCutoff,
  tombstone,
} from './account-deletion.ts';
import { checkItIsYou } from './account-security.ts';
import {
  isPrivacyTokenShape,
  newPrivacyToken,
  PRIVACY_LINK_TTL_MS,
  type PrivacyRequestKind,
  privacyLinkRefusal,
  privacyTokenDigest,
} from './privacy-token.ts';
import { forgetAccounts } from './service.ts';

// Privacy self-service (issue 20): "Download my data" and "Delete my account", each asked for
// on /account/privacy and confirmed by a mailed link that only the signed-in owner can use.

/** Links asked for per account and kind within an hour: enough for a lost mail, no more. */
export const MAX_PRIVACY_LINKS_PER_HOUR = 3;

function signedIn(ctx: RequestContext) {
  if (!ctx.user) throw new Forbidden();
  return ctx.user;
}

async function mailPrivacyLink(ctx: RequestContext, userId: number, kind: PrivacyRequestKind) {
  const since = new Date(ctx.now.getTime() - 60 * 60_000);
  const [recent] = await ctx.db
    .select({ n: count() })
    .from(privacyRequests)
    .where(
      and(
        eq(privacyRequests.userId, userId),
        eq(privacyRequests.kind, kind),
        gt(privacyRequests.createdAt, since),
      ),
    );
  if ((recent?.n ?? 0) >= MAX_PRIVACY_LINKS_PER_HOUR) {
    throw new TooManyRequests('privacy.error.tooMany');
  }
  const token = newPrivacyToken();
  await ctx.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(privacyRequests)
      .values({
        userId,
        kind,
        tokenHash: privacyTokenDigest(token),
        expiresAt: new Date(ctx.now.getTime() + PRIVACY_LINK_TTL_MS),
        createdAt: ctx.now,
      })
      .returning({ id: privacyRequests.id });
    // The token rides in the payload only until the mail is sent (outbox.ts markSent).
    await enqueue(tx, {
      kind: `privacy-${kind}`,
      dedupeKey: `privacy-${row!.id}`,
      payload: { requestId: row!.id, token },
      to: { userId },
    });
  });
}

/** "Download my data": mails the signed-in user a link to the file. */
export async function requestDataExport(ctx: RequestContext): Promise<void> {
  await mailPrivacyLink(ctx, signedIn(ctx).id, 'export');
}

export type DeletionRequestOutcome =
  | { ok: true }
  | {
      ok: false;
      error: 'privacy.error.wrongPassword' | 'login.error.passwordRequired';
    }
  | { ok: false; error: 'account.error.signInAgain' }
  | { ok: false; error: 'login.error.throttled'; retryAfterMinutes: number };

/**
 * "Delete my account", first step: the current password (checked and throttled as a login
 * is), then a confirmation link by mail. Nothing is deleted yet.
 */
export async function requestAccountDeletion(
  ctx: RequestContext,
  password: string,
  sessionToken: string | null,
): Promise<DeletionRequestOutcome> {
  const user = signedIn(ctx);
  const checked = await checkItIsYou(ctx, { password, sessionToken });
  if (!checked.ok) {
    switch (checked.reason) {
      case 'throttled':
        return {
          ok: false,
          error: 'login.error.throttled',
          retryAfterMinutes: checked.retryAfterMinutes,
        };
      case 'signInAgain':
        return { ok: false, error: 'account.error.signInAgain' };
      case 'required':
        return { ok: false, error: 'login.error.passwordRequired' };
      default:
        return { ok: false, error: 'privacy.error.wrongPassword' };
    }
  }
  await mailPrivacyLink(ctx, user.id, 'delete');
  return { ok: true };
}

/** The signed-in user's request behind a mailed link, or the reason it does not work. */
async function findLink(
  db: Queryable,
  ctx: RequestContext,
  token: string,
  kind: PrivacyRequestKind,
  lock: boolean,
) {
  const user = signedIn(ctx);
  if (!isPrivacyTokenShape(token)) throw new NotFound('privacy.error.linkUnknown');
  const query = db
    .select({
      id: privacyRequests.id,
      userId: privacyRequests.userId,
      kind: privacyRequests.kind,
      expiresAt: privacyRequests.expiresAt,
      usedAt: privacyRequests.usedAt,
    })
    .from(privacyRequests)
    .where(eq(privacyRequests.tokenHash, privacyTokenDigest(token)))
    .limit(1);
  const [request] = lock ? await query.for('update') : await query;
  const refusal = privacyLinkRefusal(request ?? null, { userId: user.id, kind }, ctx.now);
  if (refusal === 'privacy.error.linkUnknown') throw new NotFound(refusal);
  if (refusal) throw new Conflict(refusal);
  return { user, request: request! };
}

/** Uses a link once: the conditional update is what makes it single-use under races. */
async function useLink(db: Queryable, id: number, now: Date): Promise<void> {
  const used = await db
    .update(privacyRequests)
    .set({ usedAt: now })
    .where(and(eq(privacyRequests.id, id), isNull(privacyRequests.usedAt)))
    .returning({ id: privacyRequests.id });
  if (used.length === 0) throw new Conflict('privacy.error.linkUsed');
}

/** The mailed export link, followed by its owner: the data, once. */
export async function downloadMyData(ctx: RequestContext, token: string) {
  return ctx.db.transaction(async (tx) => {
    const { user, request } = await findLink(tx, ctx, token, 'export', true);
    await useLink(tx, request.id, ctx.now);
    return myData(tx, user.id, ctx.now);
  });
}

/** Whether the mailed deletion link works for the signed-in user (the confirm page). */
export async function checkDeletionLink(ctx: RequestContext, token: string): Promise<void> {
  await findLink(ctx.db, ctx, token, 'delete', false);
}

/** What "Download my data" holds: the account and everything of it we keep. */
export async function myData(db: Queryable, userId: number, now: Date) {
  const [account] = await db
    .select({
      id: users.id,
      email: users.email,
      firstName: users.firstName,
      lastName: users.lastName,
      languageCode: users.languageCode,
      timeZone: users.timeZone,
      createdAt: users.createdAt,
      eulaAcceptedAt: users.eulaAcceptedAt,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  const [roles, orderRows, lines, paid, owned, members, positions, notes, reading, annotations] =
    await Promise.all([
      db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId)),
      db
        .select({
          id: orders.id,
          status: orders.status,
          subtotalCents: orders.subtotalCents,
          feeCents: orders.feeCents,
          totalCents: orders.totalCents,
          currencyCode: orders.currencyCode,
          shippingAddress: orders.shippingAddress,
          createdAt: orders.createdAt,
          paidAt: orders.paidAt,
        })
        .from(orders)
        .where(eq(orders.userId, userId))
        .orderBy(orders.createdAt),
      db
        .select({
          orderId: orderItems.orderId,
          productId: orderItems.productId,
          title: products.title,
          offeringType: offerings.type,
          durationDays: offerings.durationDays,
          priceCents: orderItems.priceCents,
        })
        .from(orderItems)
        .innerJoin(orders, eq(orders.id, orderItems.orderId))
        .innerJoin(products, eq(products.id, orderItems.productId))
        .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
        .where(eq(orders.userId, userId))
        .orderBy(orderItems.id),
      db
        .select({
          orderId: payments.orderId,
          status: payments.status,
          amountCents: payments.amountCents,
          cardBrand: payments.cardBrand,
          cardLast4: payments.cardLast4,
          createdAt: payments.createdAt,
        })
        .from(payments)
        .innerJoin(orders, eq(orders.id, payments.orderId))
        .where(eq(orders.userId, userId))
        .orderBy(payments.createdAt),
      db
        .select({
          productId: ownerships.productId,
          title: products.title,
          source: ownerships.source,
          startsAt: ownerships.startsAt,
          expiresAt: ownerships.expiresAt,
          revokedAt: ownerships.revokedAt,
        })
        .from(ownerships)
        .innerJoin(products, eq(products.id, ownerships.productId))
        .where(eq(ownerships.userId, userId))
        .orderBy(ownerships.createdAt),
      db
        .select({
          section: courseSections.name,
          rsCourseId: courseSections.rsCourseId,
          role: sectionMembers.role,
          optStatus: sectionMembers.optStatus,
        })
        .from(sectionMembers)
        .innerJoin(courseSections, eq(courseSections.id, sectionMembers.sectionId))
        .where(eq(sectionMembers.userId, userId)),
      db
        .select({
          productId: readingPositions.productId,
          title: products.title,
          part: readingPositions.part,
          progression: readingPositions.progression,
          updatedAt: readingPositions.updatedAt,
        })
        .from(readingPositions)
        .innerJoin(products, eq(products.id, readingPositions.productId))
        .where(eq(readingPositions.userId, userId)),
      db
        .select({
          section: courseSections.name,
          productId: classroomNotes.productId,
          body: classroomNotes.body,
          createdAt: classroomNotes.createdAt,
          updatedAt: classroomNotes.updatedAt,
        })
        .from(classroomNotes)
        .innerJoin(courseSections, eq(courseSections.id, classroomNotes.sectionId))
        .where(eq(classroomNotes.authorUserId, userId))
        .orderBy(classroomNotes.createdAt),
      db
        .select({ settings: readerSettings.settings, updatedAt: readerSettings.updatedAt })
        .from(readerSettings)
        .where(eq(readerSettings.userId, userId)),
      db
        .select({
          productId: readingAnnotations.productId,
          title: products.title,
          kind: readingAnnotations.kind,
          colour: readingAnnotations.colour,
          note: readingAnnotations.note,
          part: readingAnnotations.part,
          quote: readingAnnotations.exact,
          createdAt: readingAnnotations.createdAt,
          updatedAt: readingAnnotations.updatedAt,
        })
        .from(readingAnnotations)
        .innerJoin(products, eq(products.id, readingAnnotations.productId))
        .where(eq(readingAnnotations.userId, userId))
        .orderBy(
          readingAnnotations.productId,
          readingAnnotations.part,
          readingAnnotations.startOffset,
        ),
    ]);
  return {
    exportedAt: now.toISOString(),
    account: account ?? null,
    roles: roles.map((row) => row.role),
    orders: orderRows.map((order) => ({
      number: orderNumber(order.id),
      ...order,
      items: lines
        .filter((line) => line.orderId === order.id)
        .map(({ orderId: _order, ...line }) => line),
      payments: paid
        .filter((payment) => payment.orderId === order.id)
        .map(({ orderId: _order, ...payment }) => payment),
    })),
    shelf: owned,
    sections: members,
    readingPositions: positions,
    readerSettings: reading[0] ?? null,
    highlightsAndBookmarks: annotations,
    classroomNotes: notes,
  };
}

export type MyData = Awaited<ReturnType<typeof myData>>;

/**
 * The mailed deletion link, confirmed by its owner: in one transaction, everything
 * ACCOUNT_DATA_FATE removes is removed, the account becomes a tombstone, access ends, and
 * every session of the account ends (signed out everywhere). Orders and payments stay.
 */
export async function confirmAccountDeletion(ctx: RequestContext, token: string): Promise<void> {
  const userId = await ctx.db.transaction(async (tx) => {
    const { user, request } = await findLink(tx, ctx, token, 'delete', true);
    await useLink(tx, request.id, ctx.now);
    await eraseAccount(tx, user.id, user.email, ctx.now);
    return user.id;
  });
  forgetAccounts([userId]);
}

/** Applies ACCOUNT_DATA_FATE to one account, in the caller's transaction. */
export async function eraseAccount(
  tx: Queryable,
  userId: number,
  email: string,
  now: Date,
): Promise<void> {
  const fate = ACCOUNT_DATA_FATE;
  // remove
  if (fate.sessions === 'remove') {
    // Its own sessions, and any it had opened as someone else (impersonation).
    await tx
      .delete(sessions)
      .where(or(eq(sessions.userId, userId), eq(sessions.impersonatorId, userId)));
  }
  if (fate.roles === 'remove') await tx.delete(userRoles).where(eq(userRoles.userId, userId));
  if (fate.accountFlags === 'remove') {
    await tx.delete(accountFlags).where(eq(accountFlags.userId, userId));
  }
  if (fate.loginAttempts === 'remove') {
    await tx.delete(loginAttempts).where(sql`lower(${loginAttempts.email}) = lower(${email})`);
    await tx.delete(redeemAttempts).where(eq(redeemAttempts.userId, userId));
  }
  if (fate.cart === 'remove') await tx.delete(carts).where(eq(carts.userId, userId));
  if (fate.readingPositions === 'remove') {
    await tx.delete(readingPositions).where(eq(readingPositions.userId, userId));
  }
  if (fate.readingEvents === 'remove') {
    await tx.delete(readingEvents).where(eq(readingEvents.userId, userId));
  }
  if (fate.readerSettings === 'remove') {
    await tx.delete(readerSettings).where(eq(readerSettings.userId, userId));
  }
  if (fate.readingAnnotations === 'remove') {
    await tx.delete(readingAnnotations).where(eq(readingAnnotations.userId, userId));
  }
  if (fate.readingAllowances === 'remove') {
    await tx.delete(readingAllowances).where(eq(readingAllowances.userId, userId));
  }
  if (fate.classroomNotes === 'remove') {
    await tx.delete(classroomNotes).where(eq(classroomNotes.authorUserId, userId));
  }
  if (fate.courseLaunches === 'remove') {
    await tx.delete(ltiLaunches).where(eq(ltiLaunches.userId, userId));
  }
  if (fate.sectionMemberships === 'remove') {
    await tx.delete(sectionMembers).where(eq(sectionMembers.userId, userId));
  }
  if (fate.privacyRequests === 'remove') {
    await tx.delete(privacyRequests).where(eq(privacyRequests.userId, userId));
  }
  if (fate.orderShippingAddresses === 'remove') {
    await tx.update(orders).set({ shippingAddress: null }).where(eq(orders.userId, userId));
  }
  // anonymise
  if (fate.analyticsEvents === 'anonymise') {
    await tx
      .update(analyticsEvents)
      .set({ userId: null })
      .where(eq(analyticsEvents.userId, userId));
  }
  if (fate.mailRecipients === 'anonymise') {
    await tx
      .update(outbox)
      .set({ recipientEmail: null })
      .where(
        or(eq(outbox.recipientUserId, userId), eq(outbox.recipientEmail, email.toLowerCase())),
      );
  }
  // end: access stops now; the rows say what was held, no longer by whom.
  if (fate.ownerships === 'end') {
    await tx
      .update(ownerships)
      .set({ revokedAt: now, revokedReason: 'accountDeleted' })
      .where(and(eq(ownerships.userId, userId), isNull(ownerships.revokedAt)));
  }
  if (fate.account === 'anonymise') {
    await tx.update(users).set(tombstone(userId)).where(eq(users.id, userId));
  }
  // retain: orders and payments keep pointing at the tombstone until the purge.
  await tx.insert(deletedAccounts).values({ userId, deletedAt: now }).onConflictDoNothing();
}

/**
 * The purge of kept orders (run by the order sweeper): the orders of deleted accounts placed
 * before the retention cutoff go, with their payments, lines and what hung on them.
 */
export async function purgeRetainedOrders(
  db: Queryable,
  now: Date,
  retentionYears: number,
): Promise<number> {
  const candidates = await db
    .select({ id: orders.id, createdAt: orders.createdAt })
    .from(orders)
    .innerJoin(deletedAccounts, eq(deletedAccounts.userId, orders.userId))
    .where(lt(orders.createdAt, retentionCutoff(now, retentionYears)))
    .limit(500);
  const ids = candidates
    .filter((order) =>
      mayPurgeOrder({ placedAt: order.createdAt, accountDeleted: true }, now, retentionYears),
    )
    .map((order) => order.id);
  if (ids.length === 0) return 0;
  await db.transaction(async (tx) => {
    await tx.delete(payments).where(inArray(payments.orderId, ids));
    await tx.update(ownerships).set({ orderId: null }).where(inArray(ownerships.orderId, ids));
    // Lines, transitions, shipments and print orders go with their order (on delete cascade).
    await tx.delete(orders).where(inArray(orders.id, ids));
  });
  return ids.length;
}
