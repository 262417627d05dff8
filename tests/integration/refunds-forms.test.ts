import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { accountFlags, userRoles, users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orderItems } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { action as buyerAction } from '#web/accounts/order-receipt.tsx';
import {
  action as staffAction,
  loader as staffLoader,
  shouldRevalidate as staffShouldRevalidate,
} from '#web/manage/refunds/order.tsx';

// Issue 39: the refund forms under hostile input — wrong types, NUL bytes, huge values, ids of
// other orders, malformed ids — answer 4xx with a message id in the person's language and
// change nothing; never a 500. (A missing CSRF token is refused before any action, server/app.ts.)
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

async function person(role?: string): Promise<SessionUser> {
  const [row] = await database.db
    .insert(users)
    .values({ email: `${unique('forms')}@example.test`, firstName: 'Pat', languageCode: 'fr-CA' })
    .returning({ id: users.id });
  if (role) {
    // Store support as the demo seeds it: the role, and My Users.
    await database.db.insert(userRoles).values({ userId: row!.id, role });
    await database.db.insert(accountFlags).values({ userId: row!.id, hasAccessToMyUsers: true });
  }
  return (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
}

async function paidOrder(buyer: SessionUser): Promise<{ orderId: string; orderItemId: number }> {
  const productId = await insertProduct(database.db, {}, { priceCents: 2599 });
  const [offering] = await database.db
    .select({ id: offerings.id })
    .from(offerings)
    .where(eq(offerings.productId, productId));
  const ctx = testContext(database.db, { user: buyer });
  await putInCart(ctx, { userId: buyer.id }, { offeringId: offering!.id });
  const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('forms') });
  const paid = await payOrder(ctx, new TestGateway(database.db), {
    orderId,
    method: {
      kind: 'card',
      card: { number: '4242424242424242', expMonth: 12, expYear: 2030, cvc: '123' },
    },
  });
  expect(paid).toEqual({ ok: true });
  const [item] = await database.db
    .select({ id: orderItems.id })
    .from(orderItems)
    .where(eq(orderItems.orderId, orderId));
  return { orderId, orderItemId: item!.id };
}

function post(path: string, fields: Record<string, string>): Request {
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    body: new URLSearchParams(fields),
  });
}

async function statusOf(run: () => Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    const result = (await run()) as { init?: { status?: number }; data?: unknown };
    return { status: result.init?.status ?? 200, body: result.data };
  } catch (thrown) {
    const error = thrown as { init?: { status?: number }; status?: number; data?: unknown };
    return { status: error.init?.status ?? error.status ?? 500, body: error.data };
  }
}

describe('hostile input on the refund forms (issue 39)', () => {
  it('the staff form: NUL, a huge reason, a wrong intent or id type, another order’s line → 4xx, nothing changed', async () => {
    const buyer = await person();
    const staff = await person('support');
    const { orderId, orderItemId } = await paidOrder(buyer);
    const other = await paidOrder(buyer);
    const context = testWebContext(database, { user: staff, locale: 'fr-CA' });
    const path = `/manage/orders/${orderId}`;
    const call = (fields: Record<string, string>, id = orderId) =>
      statusOf(() =>
        staffAction({ request: post(path, fields), params: { orderId: id }, context } as never),
      );
    const item = String(orderItemId);
    expect(await call({ intent: 'refund', orderItemId: item, reason: 'a\u0000b' })).toMatchObject({
      status: 400,
      body: { kind: 'error', message: 'error.invalid', orderItemId },
    });
    expect(
      await call({ intent: 'refund', orderItemId: item, reason: 'x'.repeat(100_000) }),
    ).toMatchObject({ status: 400, body: { message: 'ops.refunds.error.reasonTooLong' } });
    expect(await call({ intent: 'steal', orderItemId: item, reason: '' })).toMatchObject({
      status: 400,
      body: { message: 'ops.refunds.error.invalid' },
    });
    expect(await call({ intent: 'refund', orderItemId: '1e3', reason: '' })).toMatchObject({
      status: 400,
    });
    expect(
      await call({ intent: 'refund', orderItemId: String(other.orderItemId), reason: 'x' }),
    ).toMatchObject({ status: 404 });
    expect(await call({ intent: 'refund', orderItemId: item, reason: '' }, 'nope')).toMatchObject({
      status: 404,
    });
    expect(await database.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toEqual(
      [],
    );
  });

  it('the staff pages answer 403 to a student and 404 to an order of nobody in scope', async () => {
    const buyer = await person();
    const { orderId } = await paidOrder(buyer);
    const asStudent = testWebContext(database, { user: buyer });
    const request = new Request(`http://localhost/manage/orders/${orderId}`);
    expect(
      (
        await statusOf(() =>
          staffLoader({ request, params: { orderId }, context: asStudent } as never),
        )
      ).status,
    ).toBe(403);
  });

  it('the buyer’s form: a malformed line id is 400; a refund of someone else’s order is 404', async () => {
    const buyer = await person();
    const stranger = await person();
    const { orderId, orderItemId } = await paidOrder(buyer);
    const path = `/account/orders/${orderId}`;
    const as = (user: SessionUser) => testWebContext(database, { user });
    expect(
      await statusOf(() =>
        buyerAction({
          request: post(path, { intent: 'refund', orderItemId: 'DROP TABLE' }),
          params: { orderId },
          context: as(buyer),
        } as never),
      ),
    ).toMatchObject({ status: 400, body: { message: 'ops.refunds.error.invalid' } });
    expect(
      await statusOf(() =>
        buyerAction({
          request: post(path, { intent: 'refund', orderItemId: String(orderItemId) }),
          params: { orderId },
          context: as(stranger),
        } as never),
      ),
    ).toMatchObject({ status: 404 });
    expect(await database.db.select().from(refunds).where(eq(refunds.orderId, orderId))).toEqual(
      [],
    );
    // The buyer's own click: refunded at once.
    expect(
      await statusOf(() =>
        buyerAction({
          request: post(path, { intent: 'refund', orderItemId: String(orderItemId) }),
          params: { orderId },
          context: as(buyer),
        } as never),
      ),
    ).toMatchObject({ status: 200, body: { kind: 'refunded', amountCents: 2599 } });
  });
});

// Found by a browser walk of issue 39: support double-clicked "Refund this line"; the refund was
// made once, but the second click's answer said "No refund …: already refunded" over the page
// from before the click ($0.00 refunded, "waiting for support", no history) until a reload.
describe('a second identical refund by support (issue 39)', () => {
  it('answers calmly, and the page read after it shows the refund and its history', async () => {
    const buyer = await person();
    const staff = await person('support');
    const { orderId, orderItemId } = await paidOrder(buyer);
    const context = testWebContext(database, { user: staff, locale: 'fr-CA' });
    const path = `/manage/orders/${orderId}`;
    const fields = { intent: 'refund', orderItemId: String(orderItemId), reason: 'Wrong edition' };
    const click = () =>
      statusOf(() =>
        staffAction({ request: post(path, fields), params: { orderId }, context } as never),
      );
    // Both clicks at once, as a double click sends them.
    const answers = await Promise.all([click(), click()]);
    expect(answers).toContainEqual({
      status: 200,
      body: { kind: 'refunded', title: expect.any(String), amountCents: 2599 },
    });
    expect(answers).toContainEqual({
      status: 200,
      body: { kind: 'alreadyRefunded', title: expect.any(String) },
    });
    // The second identical POST, after the first: the same calm answer.
    expect(await click()).toMatchObject({ status: 200, body: { kind: 'alreadyRefunded' } });
    // The page after the answer reads the order again, whatever the action's status...
    for (const actionStatus of [200, 409]) {
      expect(
        staffShouldRevalidate({
          formMethod: 'POST',
          actionStatus,
          defaultShouldRevalidate: actionStatus < 400,
        } as never),
      ).toBe(true);
    }
    // ...and shows the refund: the amount, the line refunded, the history.
    const page = (await staffLoader({
      request: new Request(`http://localhost${path}`),
      params: { orderId },
      context,
    } as never)) as Awaited<ReturnType<typeof staffLoader>>;
    expect(page.order.amounts.refundedCents).toBe(2599);
    expect(page.order.lines[0]?.refund?.status).toBe('refunded');
    expect(page.order.audit.filter((line) => line.action === 'refund')).toHaveLength(1);
    const rows = await database.db.select().from(refunds).where(eq(refunds.orderId, orderId));
    expect(rows.map((row) => row.status)).toEqual(['refunded']);
  });
});
