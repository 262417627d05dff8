import { and, count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accessCodes } from '#db/schema/access.ts';
import { userRoles, users } from '#db/schema/accounts.ts';
import { bookFiles, offerings, products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments, testGatewayPayments } from '#db/schema/commerce.ts';
import { outbox } from '#db/schema/events.ts';
import { auditEvents } from '#db/schema/operations.ts';
import { bookFileMetrics, readingEvents } from '#db/schema/reading.ts';
import { refunds, testGatewayRefunds } from '#db/schema/refunds.ts';
import { ownerships } from '#db/schema/shelf.ts';
import { organizations } from '#db/schema/sites.ts';
import { acquireAccessCode, assignAccessCode, heldAccessCode } from '#domain/access/codes.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { myOrderReceipt } from '#domain/commerce/my-orders.ts';
import { orderNumber } from '#domain/commerce/order-number.ts';
import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import { refundLineAsStaff, refuseRefundRequest, requestRefund } from '#domain/commerce/refunds.ts';
import { lineRefundEmail } from '#domain/commerce/refunds-email.ts';
import { RECOVER_AFTER_MS, recoverRefunds } from '#domain/commerce/refunds-settle.ts';
import { myOrderRefunds, refundRequestQueue, staffOrder } from '#domain/commerce/refunds-views.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { OrgScope } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { lostAccess } from '#domain/shelf/my-shelf.ts';
import { formatMoney } from '#i18n/format-money.ts';
import { runOutboxOnce, type Send } from '#server/outbox-worker.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 39, refunds: a line within the Refund Policy is refunded at once from the buyer's order
// page; beyond it the request goes to support with the policy's reason; support refunds beyond
// the policy only with a reason, audited on the order. Money moves once (decision 033, 038),
// whatever is clicked twice or at once; access, stock and sales move back; the buyer is mailed
// in their language; the receipt shows the refund. Scoped per organisation.
let database: DatabaseHandle;
let gateway: TestGateway;
let riverbend: number;
let lakeshore: number;
beforeAll(async () => {
  database = await openTestDatabase();
  gateway = new TestGateway(database.db);
  const made = await database.db
    .insert(organizations)
    .values([{ title: unique('Riverbend') }, { title: unique('Lakeshore') }])
    .returning({ id: organizations.id });
  riverbend = made[0]!.id;
  lakeshore = made[1]!.id;
});
afterAll(async () => {
  await database?.close();
});

const NOW = new Date('2026-11-20T15:00:00Z');
const DAY = 86_400_000;
const ALL: OrgScope = { kind: 'all' };

async function person(
  options: { languageCode?: 'en' | 'fr-CA'; orgId?: number | null; role?: string } = {},
): Promise<SessionUser> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('refunds')}@example.test`,
      firstName: 'Sam',
      lastName: 'Reader',
      languageCode: options.languageCode ?? 'en',
      orgId: options.orgId === undefined ? riverbend : options.orgId,
    })
    .returning({ id: users.id });
  if (options.role)
    await database.db.insert(userRoles).values({ userId: row!.id, role: options.role });
  return (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
}

const ctxOf = (user: SessionUser, now = NOW): RequestContext =>
  testContext(database.db, { user, now, locale: (user.languageCode as 'en' | 'fr-CA') ?? 'en' });

type LineSpec = {
  offeringType?: string;
  priceCents?: number;
  stock?: number;
  productType?: string;
};

/** A paid order as checkout leaves it: a succeeded test payment, the digital lines owned. */
async function paidOrder(
  buyer: SessionUser,
  specs: LineSpec[],
  paidAt = new Date(NOW.getTime() - 3 * DAY),
) {
  const lines: {
    productId: number;
    offeringId: number;
    priceCents: number;
    tookStock: boolean;
    title: string;
  }[] = [];
  for (const spec of specs) {
    const title = unique('Refund Title');
    const productId = await insertProduct(
      database.db,
      { title, productType: (spec.productType ?? 'book') as 'book' },
      { priceCents: null },
    );
    const type = spec.offeringType ?? 'digital';
    const [offering] = await database.db
      .insert(offerings)
      .values({
        productId,
        type,
        bookType: type === 'digital' ? 'digital' : type === 'combo' ? 'combo' : 'print',
        priceCents: spec.priceCents ?? 4399,
        stock: spec.stock === undefined ? null : spec.stock - 1,
      })
      .returning({ id: offerings.id });
    lines.push({
      productId,
      offeringId: offering!.id,
      priceCents: spec.priceCents ?? 4399,
      tookStock: spec.stock !== undefined,
      title,
    });
  }
  const total = lines.reduce((sum, line) => sum + line.priceCents, 0);
  const [order] = await database.db
    .insert(orders)
    .values({
      userId: buyer.id,
      idempotencyKey: unique('order'),
      status: 'paid',
      subtotalCents: total,
      totalCents: total,
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
        priceCents: line.priceCents,
        isDigital: true,
        isPrint: false,
        tookStock: line.tookStock,
      })),
    )
    .returning({ id: orderItems.id });
  const payment = await gateway.createPayment({
    amountCents: total,
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
    amountCents: total,
  });
  for (const [i, line] of lines.entries()) {
    if ((specs[i]!.offeringType ?? 'digital') === 'digital') {
      await database.db.insert(ownerships).values({
        userId: buyer.id,
        productId: line.productId,
        source: 'purchase',
        orderId,
        startsAt: paidAt,
      });
    }
  }
  return {
    orderId,
    paymentRef: payment.ref,
    lines: lines.map((line, i) => ({ ...line, orderItemId: items[i]!.id })),
  };
}

async function gatewayRefunds(paymentRef: string): Promise<number> {
  const [row] = await database.db
    .select({ n: count() })
    .from(testGatewayRefunds)
    .where(eq(testGatewayRefunds.paymentRef, paymentRef));
  return row!.n;
}

async function activeOwnerships(userId: number, productId: number): Promise<number> {
  const rows = await database.db
    .select({ revokedAt: ownerships.revokedAt })
    .from(ownerships)
    .where(and(eq(ownerships.userId, userId), eq(ownerships.productId, productId)));
  return rows.filter((row) => row.revokedAt === null).length;
}

describe('the buyer asks from My Account › Orders (issue 39)', () => {
  it('within the policy: refunded at once, access ends with its reason, sales move back, mail in French, receipt shows it', async () => {
    const buyer = await person({ languageCode: 'fr-CA' });
    const ctx = ctxOf(buyer);
    const { orderId, paymentRef, lines } = await paidOrder(buyer, [{}, { priceCents: 1500 }]);
    const [first] = lines;
    await database.db
      .update(products)
      .set({ salesCount: 5 })
      .where(eq(products.id, first!.productId));

    expect((await myOrderRefunds(ctx, orderId))[0]!.option).toEqual({ kind: 'refundAtOnce' });
    const outcome = await requestRefund(ctx, gateway, { orderId, orderItemId: first!.orderItemId });
    expect(outcome).toEqual({ kind: 'refunded', amountCents: 4399, title: first!.title });

    expect(await gatewayRefunds(paymentRef)).toBe(1);
    expect(await activeOwnerships(buyer.id, first!.productId)).toBe(0);
    // Ended with its reason, for the help desk (migration 0048).
    const [ended] = await database.db
      .select({ revokedReason: ownerships.revokedReason })
      .from(ownerships)
      .where(and(eq(ownerships.userId, buyer.id), eq(ownerships.productId, first!.productId)));
    expect(ended!.revokedReason).toBe('refund');
    // The other line is untouched.
    expect(await activeOwnerships(buyer.id, lines[1]!.productId)).toBe(1);
    const [product] = await database.db
      .select({ salesCount: products.salesCount })
      .from(products)
      .where(eq(products.id, first!.productId));
    expect(product!.salesCount).toBe(4);

    const lost = await lostAccess(ctx, [], '2026-11-20');
    expect(lost).toContainEqual({
      kind: 'refunded',
      productId: first!.productId,
      title: first!.title,
      orderId,
      date: '2026-11-20',
    });

    const receipt = await myOrderReceipt(ctx, orderId);
    expect(receipt.status).toBe('partiallyRefunded');
    expect(receipt.amounts).toEqual([
      { key: 'subtotal', cents: 5899 },
      { key: 'noTax', cents: 0 },
      { key: 'total', cents: 5899 },
      { key: 'refunded', cents: 4399 },
      { key: 'net', cents: 1500 },
    ]);
    expect(receipt.refunds).toEqual([{ amountCents: 4399, at: NOW }]);

    const [refund] = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    const queued = await database.db
      .select({ kind: outbox.kind })
      .from(outbox)
      .where(eq(outbox.dedupeKey, `line-refund:${refund!.id}`));
    expect(queued).toEqual([{ kind: 'line-refund' }]);
    const mail = await lineRefundEmail(database.db, refund!.id, 'https://store.example');
    expect(mail!.subject).toBe(`Nous avons remboursé ${first!.title}`);
    expect(mail!.text).toContain(
      `Nous avons remboursé ${formatMoney('fr-CA', 4399, 'USD')} pour ${first!.title} de la commande ${receipt.number} sur votre carte. Votre accès à ${first!.title} a pris fin.`,
    );
    expect(mail!.text).toContain(`https://store.example/account/orders/${orderId}`);
  });

  it('issue 39: clicked twice, refunded once; the second click says it was already refunded', async () => {
    const buyer = await person();
    const { orderId, paymentRef, lines } = await paidOrder(buyer, [{}]);
    const input = { orderId, orderItemId: lines[0]!.orderItemId };
    expect((await requestRefund(ctxOf(buyer), gateway, input)).kind).toBe('refunded');
    expect(await requestRefund(ctxOf(buyer), gateway, input)).toEqual({
      kind: 'refused',
      rule: 'ops.refunds.rule.alreadyRefunded',
      title: lines[0]!.title,
    });
    expect(await gatewayRefunds(paymentRef)).toBe(1);
  });

  it('issue 39: clicked at once (two requests together), one refund at the gateway and one row', async () => {
    const buyer = await person();
    const { orderId, paymentRef, lines } = await paidOrder(buyer, [{}]);
    const input = { orderId, orderItemId: lines[0]!.orderItemId };
    const outcomes = await Promise.all([
      requestRefund(ctxOf(buyer), gateway, input),
      requestRefund(ctxOf(buyer), gateway, input),
      requestRefund(ctxOf(buyer), gateway, input),
    ]);
    expect(outcomes.filter((o) => o.kind === 'refunded')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'refused')).toHaveLength(2);
    expect(await gatewayRefunds(paymentRef)).toBe(1);
    const rows = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(rows.map((row) => row.status)).toEqual(['refunded']);
  });

  it('beyond the policy: the request goes to support with the rule, and is not asked twice', async () => {
    const buyer = await person();
    const { orderId, paymentRef, lines } = await paidOrder(
      buyer,
      [{}],
      new Date(NOW.getTime() - 20 * DAY),
    );
    const input = { orderId, orderItemId: lines[0]!.orderItemId };
    expect(await requestRefund(ctxOf(buyer), gateway, input)).toEqual({
      kind: 'requested',
      rule: 'ops.refunds.rule.pastWindow',
      title: lines[0]!.title,
    });
    expect(await gatewayRefunds(paymentRef)).toBe(0);
    expect(await activeOwnerships(buyer.id, lines[0]!.productId)).toBe(1);
    expect((await requestRefund(ctxOf(buyer), gateway, input)).kind).toBe('refused');
    const queue = await refundRequestQueue(ctxOf(buyer), ALL);
    expect(queue).toContainEqual(
      expect.objectContaining({
        orderId,
        title: lines[0]!.title,
        rule: 'ops.refunds.rule.pastWindow',
      }),
    );
  });

  it('Refund Policy: more than 10 % read (pages turned, weighted by text) goes to support', async () => {
    const buyer = await person();
    const { orderId, lines } = await paidOrder(buyer, [{}]);
    const [file] = await database.db
      .select({ id: bookFiles.id })
      .from(bookFiles)
      .where(eq(bookFiles.productId, lines[0]!.productId));
    await database.db.insert(bookFileMetrics).values({
      bookFileId: file!.id,
      sha256: 'x',
      textLength: 1000,
      pageCount: 4,
      partLengths: [50, 50, 400, 500],
    });
    const turn = (part: number) => ({
      userId: buyer.id,
      productId: lines[0]!.productId,
      kind: 'page',
      part,
      occurredAt: new Date(NOW.getTime() - DAY),
    });
    await database.db.insert(readingEvents).values([turn(0), turn(1), turn(1)]);
    expect((await myOrderRefunds(ctxOf(buyer), orderId))[0]!.option).toEqual({
      kind: 'refundAtOnce',
    });
    await database.db.insert(readingEvents).values(turn(2));
    expect((await myOrderRefunds(ctxOf(buyer), orderId))[0]!.option).toEqual({
      kind: 'askSupport',
      rule: 'ops.refunds.rule.readTooMuch',
    });
  });

  it('spec 2: a printed course material is refused by its rule, for the buyer and for support', async () => {
    const buyer = await person();
    const staff = await person({ role: 'support', orgId: null });
    const { orderId, lines } = await paidOrder(buyer, [{ offeringType: 'print' }]);
    const input = { orderId, orderItemId: lines[0]!.orderItemId };
    expect(await requestRefund(ctxOf(buyer), gateway, input)).toMatchObject({
      kind: 'refused',
      rule: 'ops.refunds.rule.printed',
    });
    expect(
      await refundLineAsStaff(ctxOf(staff), gateway, ALL, { ...input, reason: 'Please' }),
    ).toMatchObject({ kind: 'refused', rule: 'ops.refunds.rule.printed' });
    expect(await database.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toEqual(
      [],
    );
  });

  it('another buyer’s order, or a line of another order, is not found; nothing changes', async () => {
    const buyer = await person();
    const other = await person();
    const { orderId, lines } = await paidOrder(buyer, [{}]);
    const second = await paidOrder(buyer, [{}]);
    await expect(
      requestRefund(ctxOf(other), gateway, { orderId, orderItemId: lines[0]!.orderItemId }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      requestRefund(ctxOf(buyer), gateway, { orderId, orderItemId: second.lines[0]!.orderItemId }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      requestRefund(ctxOf(buyer), gateway, { orderId: 'not-a-uuid', orderItemId: 1 }),
    ).rejects.toBeInstanceOf(NotFound);
    expect(await database.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toEqual(
      [],
    );
  });
});

describe('support and managers refund from the help desk (issue 39)', () => {
  it('beyond the policy only with a reason; the audit says who, before → after and why', async () => {
    const buyer = await person();
    const staff = await person({ role: 'support', orgId: null });
    const { orderId, paymentRef, lines } = await paidOrder(
      buyer,
      [{}],
      new Date(NOW.getTime() - 40 * DAY),
    );
    const input = { orderId, orderItemId: lines[0]!.orderItemId };
    expect(await refundLineAsStaff(ctxOf(staff), gateway, ALL, { ...input, reason: '  ' })).toEqual(
      {
        kind: 'invalid',
        field: 'reason',
        message: 'ops.refunds.error.reasonRequired',
      },
    );
    expect(await gatewayRefunds(paymentRef)).toBe(0);
    expect(
      await refundLineAsStaff(ctxOf(staff), gateway, ALL, {
        ...input,
        reason: 'Wrong edition sold',
      }),
    ).toEqual({ kind: 'refunded', amountCents: 4399, title: lines[0]!.title });
    expect(await gatewayRefunds(paymentRef)).toBe(1);
    const audit = await database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.objectType, 'order'), eq(auditEvents.objectId, orderId)));
    expect(audit).toEqual([
      expect.objectContaining({
        actorUserId: staff.id,
        action: 'refund',
        before: { item: lines[0]!.title, refund: 'none' },
        after: { item: lines[0]!.title, refund: 'approved', amountCents: 4399 },
        reason: 'Wrong edition sold',
      }),
    ]);
    const view = await staffOrder(ctxOf(staff), ALL, orderId);
    // The help desk's order page names its state as the buyer's own order page does.
    expect(view.status).toBe('refunded');
    // Its payment stays succeeded at the gateway; the help desk says it is refunded in full.
    expect(view.payments).toEqual([
      expect.objectContaining({ status: 'succeeded', state: { kind: 'refunded' } }),
    ]);
    expect(view.lines[0]!.refund).toMatchObject({
      status: 'refunded',
      reason: 'Wrong edition sold',
    });
    expect(view.audit).toHaveLength(1);
  });

  it('a buyer’s request is refused with a reason, audited; the buyer sees it and cannot ask again', async () => {
    const buyer = await person();
    const staff = await person({ role: 'support', orgId: null });
    const { orderId, lines } = await paidOrder(buyer, [{}], new Date(NOW.getTime() - 30 * DAY));
    const input = { orderId, orderItemId: lines[0]!.orderItemId };
    await requestRefund(ctxOf(buyer), gateway, input);
    expect(await refuseRefundRequest(ctxOf(staff), ALL, { ...input, reason: '' })).toMatchObject({
      kind: 'invalid',
    });
    expect(
      await refuseRefundRequest(ctxOf(staff), ALL, { ...input, reason: 'Used all term' }),
    ).toEqual({ kind: 'refused', title: lines[0]!.title });
    const [line] = await myOrderRefunds(ctxOf(buyer), orderId);
    expect(line!.option).toEqual({ kind: 'none', rule: 'ops.refunds.rule.refused' });
    expect(line!.refund).toMatchObject({ status: 'refused', reason: 'Used all term' });
  });

  it('issue 39: a declined request mails the buyer once, in their language, with the reason and the rule', async () => {
    const staff = await person({ role: 'support', orgId: null });
    const sent: Parameters<Send>[0][] = [];
    const send: Send = async (message) => {
      sent.push(message);
    };
    const cases = [
      { languageCode: 'en' as const, reason: 'You used it all term.' },
      { languageCode: 'fr-CA' as const, reason: 'Utilisé tout le trimestre.' },
    ];
    const made = [];
    for (const { languageCode, reason } of cases) {
      const buyer = await person({ languageCode });
      const { orderId, lines } = await paidOrder(buyer, [{}], new Date(NOW.getTime() - 30 * DAY));
      const input = { orderId, orderItemId: lines[0]!.orderItemId };
      expect(await requestRefund(ctxOf(buyer), gateway, input)).toMatchObject({
        kind: 'requested',
        rule: 'ops.refunds.rule.pastWindow',
      });
      // Asked without a reason: refused as invalid, and nothing is queued.
      await refuseRefundRequest(ctxOf(staff), ALL, { ...input, reason: '  ' });
      expect(
        await refuseRefundRequest(ctxOf(staff), ALL, { ...input, reason: ` ${reason} ` }),
      ).toEqual({ kind: 'refused', title: lines[0]!.title });
      // Declined again (a second click): nothing more is queued.
      expect(await refuseRefundRequest(ctxOf(staff), ALL, { ...input, reason })).toMatchObject({
        kind: 'notRequested',
      });
      const [refund] = await database.db
        .select({ id: refunds.id })
        .from(refunds)
        .where(eq(refunds.orderId, orderId));
      const queued = await database.db
        .select({ kind: outbox.kind, payload: outbox.payload })
        .from(outbox)
        .where(eq(outbox.kind, 'line-refund-refused'));
      expect(
        queued.filter((row) => (row.payload as { refundId?: string }).refundId === refund!.id),
      ).toHaveLength(1);
      made.push({ buyer, orderId, title: lines[0]!.title, reason });
    }
    // The outbox's rows are due by the database's clock, not the test's.
    const options = { now: new Date(), publicOrigin: 'https://store.example' };
    while ((await runOutboxOnce(database.db, send, options)).claimed > 0);

    const [en, fr] = made.map(({ buyer }) => sent.filter((mail) => mail.to === buyer.email));
    expect(en).toHaveLength(1);
    expect(en![0]!.subject).toBe(`Your refund request for ${made[0]!.title} was declined`);
    expect(en![0]!.text).toBe(
      [
        'Hello Sam,',
        '',
        `Support declined your request for a refund of ${made[0]!.title} from order ${orderNumber(made[0]!.orderId)}. Nothing was charged or refunded.`,
        '',
        'Their reason: You used it all term.',
        'Why the Refund Policy sent it to support: It was bought more than 14 days ago.',
        '',
        `Your access to ${made[0]!.title} is unchanged.`,
        '',
        `Your order: https://store.example/account/orders/${made[0]!.orderId}`,
      ].join('\n'),
    );
    expect(fr).toHaveLength(1);
    expect(fr![0]!.subject).toBe(
      `Votre demande de remboursement de ${made[1]!.title} a été refusée`,
    );
    expect(fr![0]!.text).toContain(
      `Le soutien a refusé votre demande de remboursement de ${made[1]!.title} de la commande ${orderNumber(made[1]!.orderId)}.`,
    );
    expect(fr![0]!.text).toContain('Motif donné : Utilisé tout le trimestre.');
    expect(fr![0]!.text).toContain(
      'Pourquoi la politique de remboursement l’a transmise au soutien : ',
    );
    expect(fr![0]!.text).toContain(`Votre accès à ${made[1]!.title} reste inchangé.`);
    expect(fr![0]!.text).toContain(`https://store.example/account/orders/${made[1]!.orderId}`);
    // The buyer's access is unchanged.
    for (const { orderId } of made) {
      const [owned] = await database.db
        .select({ revokedAt: ownerships.revokedAt })
        .from(ownerships)
        .where(eq(ownerships.orderId, orderId));
      expect(owned).toEqual({ revokedAt: null });
    }
  });

  it('issue 39: a refunded courseware line revokes the access code it delivered: never shown or given again; the shelf and the order pages say so', async () => {
    const buyer = await person({ languageCode: 'fr-CA' });
    const staff = await person({ role: 'support', orgId: null });
    const { orderId, lines } = await paidOrder(buyer, [{ productType: 'courseware' }, {}]);
    const [courseware, book] = lines;
    const pool = [unique('CODE-A'), unique('CODE-B'), unique('CODE-C')];
    await database.db
      .insert(accessCodes)
      .values(pool.map((code) => ({ productId: courseware!.productId, code })));
    // Checkout hands the buyer the pool's first code with the order (orders.ts).
    const delivered = await database.db.transaction((tx) =>
      assignAccessCode(tx, {
        productId: courseware!.productId,
        userId: buyer.id,
        orderId,
        now: new Date(NOW.getTime() - 3 * DAY),
      }),
    );
    expect(delivered?.code).toBe(pool[0]);
    expect(await heldAccessCode(ctxOf(buyer), courseware!.productId)).toMatchObject({
      code: pool[0],
    });

    // A delivered code sends the buyer to support; support refunds it with a reason.
    const input = { orderId, orderItemId: courseware!.orderItemId };
    expect(await requestRefund(ctxOf(buyer), gateway, input)).toMatchObject({
      kind: 'requested',
      rule: 'ops.refunds.rule.codeDelivered',
    });
    expect(
      await refundLineAsStaff(ctxOf(staff), gateway, ALL, { ...input, reason: 'Wrong course' }),
    ).toMatchObject({ kind: 'refunded', amountCents: courseware!.priceCents });

    // The code is revoked with the refund, and the courseware left the shelf, saying why.
    const [row] = await database.db
      .select({ assignedUserId: accessCodes.assignedUserId, revokedAt: accessCodes.revokedAt })
      .from(accessCodes)
      .where(eq(accessCodes.code, pool[0]!));
    expect(row).toEqual({ assignedUserId: buyer.id, revokedAt: NOW });
    expect(await activeOwnerships(buyer.id, courseware!.productId)).toBe(0);
    expect(await activeOwnerships(buyer.id, book!.productId)).toBe(1);
    expect(await lostAccess(ctxOf(buyer), [], '2026-11-20')).toContainEqual({
      kind: 'refunded',
      productId: courseware!.productId,
      title: courseware!.title,
      orderId,
      date: '2026-11-20',
    });
    await expect(heldAccessCode(ctxOf(buyer), courseware!.productId)).rejects.toBeInstanceOf(
      NotFound,
    );

    // The buyer's order page and the help desk's order page show the code revoked.
    const mine = await myOrderRefunds(ctxOf(buyer), orderId);
    expect(mine.map((line) => line.accessCode)).toEqual([
      { last4: pool[0]!.slice(-4), revoked: true },
      null,
    ]);
    const view = await staffOrder(ctxOf(staff), ALL, orderId);
    expect(view.lines[0]!.accessCode).toEqual({ last4: pool[0]!.slice(-4), revoked: true });

    // Given the courseware again (a section, another purchase), the buyer holds no code until
    // one is acquired, and the refunded one is never handed out again, to them or anyone.
    await database.db.insert(ownerships).values({
      userId: buyer.id,
      productId: courseware!.productId,
      source: 'inclusive_access',
      startsAt: NOW,
    });
    expect(await heldAccessCode(ctxOf(buyer), courseware!.productId)).toBeNull();
    expect(await acquireAccessCode(ctxOf(buyer), courseware!.productId)).toMatchObject({
      code: pool[1],
    });
    const other = await person();
    const next = await database.db.transaction((tx) =>
      assignAccessCode(tx, {
        productId: courseware!.productId,
        userId: other.id,
        orderId: null,
        now: NOW,
      }),
    );
    expect(next?.code).toBe(pool[2]);
    const third = await person();
    const none = await database.db.transaction((tx) =>
      assignAccessCode(tx, {
        productId: courseware!.productId,
        userId: third.id,
        orderId: null,
        now: NOW,
      }),
    );
    expect(none).toBeNull();
  });

  it('issue 39: a Lakeshore staff member gets not found for a Riverbend buyer’s order, and an empty queue', async () => {
    const buyer = await person({ orgId: riverbend });
    const staff = await person({ orgId: lakeshore });
    const scope: OrgScope = { kind: 'orgs', orgIds: [lakeshore] };
    const { orderId, lines } = await paidOrder(buyer, [{}], new Date(NOW.getTime() - 30 * DAY));
    await requestRefund(ctxOf(buyer), gateway, { orderId, orderItemId: lines[0]!.orderItemId });
    await expect(staffOrder(ctxOf(staff), scope, orderId)).rejects.toBeInstanceOf(NotFound);
    await expect(
      refundLineAsStaff(ctxOf(staff), gateway, scope, {
        orderId,
        orderItemId: lines[0]!.orderItemId,
        reason: 'x',
      }),
    ).rejects.toBeInstanceOf(NotFound);
    expect((await refundRequestQueue(ctxOf(staff), scope)).map((r) => r.orderId)).not.toContain(
      orderId,
    );
    const riverbendScope: OrgScope = { kind: 'orgs', orgIds: [riverbend] };
    expect(
      (await refundRequestQueue(ctxOf(staff), riverbendScope)).map((r) => r.orderId),
    ).toContain(orderId);
  });

  it('a physical product refunded by support puts its unit back in stock', async () => {
    const buyer = await person();
    const staff = await person({ role: 'manager', orgId: null });
    const { orderId, lines } = await paidOrder(buyer, [
      { offeringType: 'physical_product', productType: 'physical_product', stock: 5 },
    ]);
    const outcome = await refundLineAsStaff(ctxOf(staff), gateway, ALL, {
      orderId,
      orderItemId: lines[0]!.orderItemId,
      reason: 'Returned unopened',
    });
    expect(outcome.kind).toBe('refunded');
    const [offering] = await database.db
      .select({ stock: offerings.stock })
      .from(offerings)
      .where(eq(offerings.id, lines[0]!.offeringId));
    expect(offering!.stock).toBe(5);
  });
});

describe('money exactly once across a crash (decision 033, 038)', () => {
  it('a gateway that did not answer leaves the refund on its way; the sweeper settles it with the same key', async () => {
    const buyer = await person();
    const { orderId, paymentRef, lines } = await paidOrder(buyer, [{}]);
    const silent: PaymentGateway = Object.assign(Object.create(gateway), {
      refundAmount: async (input: Parameters<PaymentGateway['refundAmount']>[0]) => {
        await gateway.refundAmount(input);
        throw new Error('kill -9');
      },
    });
    const outcome = await requestRefund(ctxOf(buyer), silent, {
      orderId,
      orderItemId: lines[0]!.orderItemId,
    });
    expect(outcome).toEqual({ kind: 'processing', title: lines[0]!.title });
    expect(await activeOwnerships(buyer.id, lines[0]!.productId)).toBe(1);
    expect(await recoverRefunds(database.db, gateway, NOW)).toEqual([]);
    const later = new Date(NOW.getTime() + RECOVER_AFTER_MS + 1);
    const settled = await recoverRefunds(database.db, gateway, later);
    expect(settled).toHaveLength(1);
    expect(await gatewayRefunds(paymentRef)).toBe(1);
    expect(await activeOwnerships(buyer.id, lines[0]!.productId)).toBe(0);
  });
});
