import { readFileSync } from 'node:fs';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountFlags, userRoles, users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orderItems, orders, payments, testGatewayPayments } from '#db/schema/commerce.ts';
import { courseSections, courses, optChanges, sectionMembers } from '#db/schema/courses.ts';
import { deletedAccounts } from '#db/schema/privacy.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import type { Locale } from '#domain/accounts/language.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { myOrderReceipt, myOrders } from '#domain/commerce/my-orders.ts';
import { requestRefund } from '#domain/commerce/refunds.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { endMembership } from '#domain/courses/membership.ts';
import { systemActor } from '#domain/operations/audit.ts';
import { translate } from '#i18n/translate.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { renderPage, tableRows } from '#tests/render-page.tsx';
import PersonPage, { loader as personLoader } from '#web/manage/helpdesk/person-page.tsx';

// Issue 39, the help desk's person page as staff read it: "see their sections, ownerships and
// how each was granted, orders, codes, …" — a section named as the rest of the store names it,
// an order by the number and state its buyer reads on their own order page, an ownership that
// ended with the reason it ended. In English and French.

let database: DatabaseHandle;
let gateway: TestGateway;
let riverbend: number;
beforeAll(async () => {
  database = await openTestDatabase();
  gateway = new TestGateway(database.db);
  const [org] = await database.db
    .insert(organizations)
    .values({ title: unique('Riverbend') })
    .returning({ id: organizations.id });
  riverbend = org!.id;
});
afterAll(async () => {
  await database?.close();
});

const NOW = new Date('2026-11-20T15:00:00Z');
const DAY = 86_400_000;

async function account(
  input: { roles?: string[]; flags?: Partial<typeof accountFlags.$inferInsert> } = {},
): Promise<SessionUser> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('hdpv')}@example.test`,
      firstName: 'Rosa',
      lastName: unique('Diaz'),
      orgId: riverbend,
    })
    .returning({ id: users.id });
  for (const role of input.roles ?? [])
    await database.db.insert(userRoles).values({ userId: row!.id, role });
  await database.db.insert(accountFlags).values({ userId: row!.id, ...input.flags });
  return (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
}

/** A paid order of two digital books, owned, as checkout leaves it; its ids. */
async function paidOrder(buyer: SessionUser) {
  const paidAt = new Date(NOW.getTime() - 3 * DAY);
  const lines: { productId: number; offeringId: number; title: string }[] = [];
  for (const title of [unique('Refunded Book'), unique('Kept Book')]) {
    const productId = await insertProduct(database.db, { title }, { priceCents: null });
    const [offering] = await database.db
      .insert(offerings)
      .values({ productId, type: 'digital', bookType: 'digital', priceCents: 4000 })
      .returning({ id: offerings.id });
    lines.push({ productId, offeringId: offering!.id, title });
  }
  const [order] = await database.db
    .insert(orders)
    .values({
      userId: buyer.id,
      idempotencyKey: unique('order'),
      status: 'paid',
      subtotalCents: 8000,
      totalCents: 8000,
      paidAt,
      createdAt: paidAt,
    })
    .returning({ id: orders.id });
  const orderId = order!.id;
  const items = await database.db
    .insert(orderItems)
    .values(
      lines.map((line) => ({
        orderId,
        productId: line.productId,
        offeringId: line.offeringId,
        priceCents: 4000,
        isDigital: true,
        isPrint: false,
      })),
    )
    .returning({ id: orderItems.id });
  const payment = await gateway.createPayment({
    amountCents: 8000,
    currencyCode: 'USD',
    orderId,
    idempotencyKey: unique('pay'),
  });
  await database.db
    .update(testGatewayPayments)
    .set({ status: 'succeeded' })
    .where(eq(testGatewayPayments.ref, payment.ref));
  await database.db.insert(payments).values({
    orderId,
    gateway: 'test',
    gatewayRef: payment.ref,
    status: 'succeeded',
    amountCents: 8000,
  });
  for (const line of lines) {
    await database.db.insert(ownerships).values({
      userId: buyer.id,
      productId: line.productId,
      source: 'purchase',
      orderId,
      startsAt: paidAt,
    });
  }
  return { orderId, lines: lines.map((line, i) => ({ ...line, orderItemId: items[i]!.id })) };
}

/** The person page as the staff member reads it, in a language. */
async function personPage(staff: SessionUser, userId: number, locale: Locale) {
  const data = await personLoader({
    request: new Request(`http://127.0.0.1/manage/users/${userId}`),
    params: { userId: String(userId) },
    context: testWebContext(database, { user: staff, now: NOW, locale }),
  } as never);
  return renderPage(locale, PersonPage, data);
}

describe('the help desk person page, as staff read it (issue 39)', () => {
  it('issue 39: sections, orders and ownerships read as the store and the buyer’s own pages read them', async () => {
    const manager = await account({ roles: ['manager'], flags: { isPostingEnabled: true } });
    const student = await account();
    const [course] = await database.db
      .insert(courses)
      .values({ orgId: riverbend, name: 'Biology', department: 'BIO', number: '101' })
      .returning({ id: courses.id });
    const [section] = await database.db
      .insert(courseSections)
      .values({
        courseId: course!.id,
        name: 'Principles of Biology',
        number: '002',
        rsCourseId: unique('RSC'),
        startDate: '2026-08-24',
        endDate: '2026-12-15',
        addDropAt: new Date('2026-09-05T04:00:00Z'),
      })
      .returning({ id: courseSections.id });
    await database.db.insert(sectionMembers).values({
      sectionId: section!.id,
      userId: student.id,
      role: 'student',
      rsCoursememberId: unique('m'),
      addDropDate: new Date('2026-09-05T04:00:00Z'),
    });
    const { orderId, lines } = await paidOrder(student);
    const [refunded, kept] = lines;
    const buyer = testContext(database.db, { user: student, now: NOW });
    expect(
      await requestRefund(buyer, gateway, { orderId, orderItemId: refunded!.orderItemId }),
    ).toMatchObject({ kind: 'refunded' });
    // A revocation from before reasons were kept (migration 0048): said, not hidden.
    const oldTitle = unique('Old Book');
    const oldProduct = await insertProduct(database.db, { title: oldTitle });
    await database.db.insert(ownerships).values({
      userId: student.id,
      productId: oldProduct,
      source: 'free',
      startsAt: new Date('2026-01-05T12:00:00Z'),
      revokedAt: new Date('2026-02-10T12:00:00Z'),
    });

    // The buyer's own order page: its number and its state.
    const [own] = (await myOrders(buyer, 1)).orders;
    expect(own!.status).toBe('partiallyRefunded');
    expect((await myOrderReceipt(buyer, orderId)).number).toBe(own!.number);

    const en = await personPage(manager, student.id, 'en');
    expect(tableRows(en, 'Sections').slice(1)).toEqual([
      ['BIO 101: Section 002 · Principles of Biology', 'Student', 'Opted in', 'None'],
    ]);
    const [order] = tableRows(en, 'Orders').slice(1);
    expect(order!.slice(0, 1)).toEqual([`Order ${own!.number}`]);
    expect(order![2]).toBe('Partially refunded');
    expect(order![2]).toBe(translate('en', `orders.status.${own!.status}`));
    const states = Object.fromEntries(
      tableRows(en, 'On the shelf')
        .slice(1)
        .map((row) => [row[0], row[4]]),
    );
    expect(states[kept!.title]).toBe('Active');
    expect(states[refunded!.title]).toMatch(/^Revoked Nov 20, 2026, .+: refunded$/);
    expect(states[oldTitle]).toMatch(/^Revoked Feb 10, 2026, .+ \(reason not recorded\)$/);

    const fr = await personPage(manager, student.id, 'fr-CA');
    expect(tableRows(fr, 'Sections')[1]![0]).toBe('BIO 101 : Section 002 · Principles of Biology');
    // No fee: « Aucun », as Course Manager says it (one message).
    expect(tableRows(fr, 'Sections')[1]![3]).toBe('Aucun');
    const [frOrder] = tableRows(fr, 'Commandes').slice(1);
    expect(frOrder![0]).toBe(`Commande ${own!.number}`);
    expect(frOrder![2]).toBe('Remboursée en partie');
    const frStates = Object.fromEntries(
      tableRows(fr, 'Sur l’étagère')
        .slice(1)
        .map((row) => [row[0], row[4]]),
    );
    expect(frStates[kept!.title]).toBe('Actif');
    expect(frStates[refunded!.title]).toMatch(/^Révoqué le 20 nov\. 2026, .+ : remboursé$/);
  });

  it('issue 39: migration 0048 finds why the ownerships revoked before it ended, where the cause left a trace', async () => {
    const student = await account();
    const { orderId, lines } = await paidOrder(student);
    const buyer = testContext(database.db, { user: student, now: NOW });
    await requestRefund(buyer, gateway, { orderId, orderItemId: lines[0]!.orderItemId });
    const [course] = await database.db
      .insert(courses)
      .values({ orgId: riverbend, name: 'Biology', department: 'BIO', number: '101' })
      .returning({ id: courses.id });
    const sections = await database.db
      .insert(courseSections)
      .values(
        [1, 2].map((n) => ({
          courseId: course!.id,
          name: `Biology ${n}`,
          rsCourseId: unique('RSC'),
          startDate: '2026-08-24',
          endDate: '2026-12-15',
          addDropAt: new Date('2026-09-05T04:00:00Z'),
        })),
      )
      .returning({ id: courseSections.id });
    const [dropped, optedOut] = sections.map((row) => row.id);
    const members = await database.db
      .insert(sectionMembers)
      .values(
        [dropped!, optedOut!].map((sectionId) => ({
          sectionId,
          userId: student.id,
          role: 'student',
          rsCoursememberId: unique('m'),
          addDropDate: new Date('2026-09-05T04:00:00Z'),
        })),
      )
      .returning({ id: sectionMembers.id });
    const given = await insertProduct(database.db);
    const optedBook = await insertProduct(database.db);
    const unknown = await insertProduct(database.db);
    await database.db.insert(ownerships).values([
      { userId: student.id, productId: given, source: 'course_fee', courseSectionId: dropped! },
      {
        userId: student.id,
        productId: optedBook,
        source: 'inclusive_access',
        courseSectionId: optedOut!,
        revokedAt: new Date('2026-09-01T12:00:00Z'),
      },
      {
        userId: student.id,
        productId: unknown,
        source: 'free',
        revokedAt: new Date('2026-09-02T12:00:00Z'),
      },
    ]);
    await database.db.transaction((tx) =>
      endMembership(tx, systemActor('roster import'), {
        memberId: members[0]!.id,
        at: new Date('2026-09-03T12:00:00Z'),
        source: 'roster',
      }),
    );
    // The opt-out stamped the ownership with its own instant.
    await database.db.insert(optChanges).values({
      memberId: members[1]!.id,
      actorUserId: student.id,
      fromStatus: 'opted_in',
      toStatus: 'opted_out',
      changedAt: new Date('2026-09-01T12:00:00Z'),
    });
    // As before migration 0048: revoked, no reason kept.
    const products = [lines[0]!.productId, lines[1]!.productId, given, optedBook, unknown];
    await database.db
      .update(ownerships)
      .set({ revokedReason: null })
      .where(inArray(ownerships.productId, products));
    const migration = readFileSync('db/migrations/0048_ownership_revoked_reason.sql', 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) {
      const text = statement
        .split('\n')
        .filter((line) => !line.startsWith('--'))
        .join('\n')
        .trim();
      if (text.startsWith('UPDATE')) await database.db.execute(sql.raw(text));
    }
    const reasons = async () =>
      Object.fromEntries(
        (
          await database.db
            .select({ productId: ownerships.productId, reason: ownerships.revokedReason })
            .from(ownerships)
            .where(inArray(ownerships.productId, products))
        ).map((row) => [row.productId, row.reason]),
      );
    expect(await reasons()).toEqual({
      [lines[0]!.productId]: 'refund',
      [lines[1]!.productId]: null,
      [given]: 'enrolmentEnded',
      [optedBook]: 'optOut',
      [unknown]: null,
    });
    // A deleted account's ownerships ended with it.
    await database.db
      .update(ownerships)
      .set({ revokedAt: new Date('2026-09-04T12:00:00Z') })
      .where(eq(ownerships.productId, unknown));
    await database.db
      .insert(deletedAccounts)
      .values({ userId: student.id, deletedAt: new Date('2026-09-04T12:00:00Z') });
    const [first] = migration.split('--> statement-breakpoint').slice(2);
    expect(first).toContain("'accountDeleted'");
    await database.db.execute(
      sql.raw(
        first!
          .split('\n')
          .filter((line) => !line.startsWith('--'))
          .join('\n'),
      ),
    );
    expect((await reasons())[unknown]).toBe('accountDeleted');
  });
});
