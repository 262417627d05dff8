import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { loginAttempts, sessions, userRoles, users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { carts, orders, payments } from '#db/schema/commerce.ts';
import { analyticsEvents, outbox } from '#db/schema/events.ts';
import { deletedAccounts, privacyRequests } from '#db/schema/privacy.ts';
import { readerSettings, readingAnnotations, readingPositions } from '#db/schema/reading.ts';
import { ownerships } from '#db/schema/shelf.ts';
import {
  confirmAccountDeletion,
  downloadMyData,
  purgeRetainedOrders,
  requestAccountDeletion,
  requestDataExport,
} from '#domain/accounts/privacy.ts';
import { privacyTokenDigest } from '#domain/accounts/privacy-token.ts';
import {
  createUser,
  findSessionUser,
  loadSessionUser,
  login,
  startSession,
} from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { privacyLinkEmail } from '#domain/notifications/privacy-email.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound, TooManyRequests } from '#domain/shared/errors.ts';
import { runOutboxOnce } from '#server/outbox-worker.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { action as privacyAction } from '#web/accounts/privacy.tsx';
import { loader as exportLoader } from '#web/accounts/privacy-export.tsx';

// Issue 20, Privacy self-service: "download my data (account, orders, shelf, reading
// positions, notes) as JSON, and delete my account (orders and payments kept for a retention
// period set in configuration, default seven years, without the personal data; access ended),
// each confirmed by mail".
let database: DatabaseHandle;
let gateway: TestGateway;
beforeAll(async () => {
  database = await openTestDatabase();
  gateway = new TestGateway(database.db);
});
afterAll(async () => {
  await database?.close();
});

const NOW = new Date('2026-11-27T14:00:00Z');
const ORIGIN = 'https://store.example.test';
const PASSWORD = 'correct horse battery staple';
const ADDRESS = {
  name: 'Sam Reader',
  line1: '1 Campus Way',
  line2: '',
  city: 'Northfield',
  region: 'MN',
  postalCode: '55057',
  country: 'US' as const,
};

async function person(languageCode: 'en' | 'fr-CA' = 'en'): Promise<RequestContext> {
  const userId = await createUser(database.db, {
    email: `${unique('privacy')}@example.test`,
    password: PASSWORD,
    firstName: 'Sam',
    lastName: 'Reader',
  });
  await database.db.update(users).set({ languageCode }).where(eq(users.id, userId));
  const user = (await loadSessionUser(database.db, { userId, impersonatorId: null }))!;
  return testContext(database.db, { user, now: NOW, locale: languageCode });
}

/** A paid order of a print copy (so it has a shipping address) and its ownership. */
async function buyPrint(ctx: RequestContext): Promise<string> {
  const title = unique('Privacy Title');
  const productId = await insertProduct(database.db, { title }, { priceCents: null });
  const [offer] = await database.db
    .insert(offerings)
    .values({ productId, type: 'combo', bookType: 'digital', priceCents: 5000 })
    .returning({ id: offerings.id });
  await putInCart(ctx, { userId: ctx.user!.id }, { offeringId: offer!.id });
  const { orderId } = await placeOrder(ctx, {
    idempotencyKey: unique('privacy'),
    shippingAddress: ADDRESS,
  });
  const method = {
    kind: 'card' as const,
    card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' },
  };
  expect(await payOrder(ctx, gateway, { orderId, method })).toEqual({ ok: true });
  return orderId;
}

/** The token of the user's last mailed link, read back from the outbox as the worker would. */
async function mailedToken(userId: number, kind: 'export' | 'delete') {
  const [request] = await database.db
    .select({ id: privacyRequests.id, tokenHash: privacyRequests.tokenHash })
    .from(privacyRequests)
    .where(and(eq(privacyRequests.userId, userId), eq(privacyRequests.kind, kind)))
    .orderBy(privacyRequests.id);
  const [message] = await database.db
    .select({ payload: outbox.payload })
    .from(outbox)
    .where(eq(outbox.dedupeKey, `privacy-${request!.id}`));
  const token = String(message!.payload.token);
  // Only the digest is stored with the request.
  expect(request!.tokenHash).toBe(privacyTokenDigest(token));
  expect(request!.tokenHash).not.toContain(token);
  return { token, payload: message!.payload };
}

describe('Download my data (issue 20)', () => {
  it('issue 20: the mailed link gives the owner their account and orders as JSON, once', async () => {
    const ctx = await person();
    const orderId = await buyPrint(ctx);
    await database.db
      .insert(readerSettings)
      .values({ userId: ctx.user!.id, settings: { theme: 'sepia', font: 'dyslexic' } });
    const [owned] = await database.db
      .select({ productId: ownerships.productId })
      .from(ownerships)
      .where(eq(ownerships.userId, ctx.user!.id));
    await database.db.insert(readingAnnotations).values({
      userId: ctx.user!.id,
      productId: owned!.productId,
      kind: 'highlight',
      colour: 'green',
      note: 'Key idea',
      part: 1,
      startOffset: 10,
      endOffset: 22,
      exact: 'Every cell h',
    });
    await requestDataExport(ctx);
    const { token, payload } = await mailedToken(ctx.user!.id, 'export');
    const mail = await privacyLinkEmail(database.db, payload, ORIGIN);
    expect(mail!.to).toBe(ctx.user!.email);
    expect(mail!.subject).toBe('Download your Shelfmark data');
    expect(mail!.text).toContain(`${ORIGIN}/account/privacy/export/${token}`);
    expect(mail!.text).toContain('The link works once, for one hour.');

    const data = await downloadMyData(ctx, token);
    expect(data.account).toEqual(
      expect.objectContaining({ email: ctx.user!.email, firstName: 'Sam', lastName: 'Reader' }),
    );
    expect(data.orders.map((order) => order.id)).toEqual([orderId]);
    expect(data.orders[0]!.items).toHaveLength(1);
    expect(data.orders[0]!.payments[0]).toEqual(
      expect.objectContaining({ cardLast4: '4242', status: 'succeeded' }),
    );
    expect(data.shelf.length).toBeGreaterThan(0);
    // Issue 16: how they like to read is theirs too, and so are their highlights and notes.
    expect(data.readerSettings?.settings).toEqual({ theme: 'sepia', font: 'dyslexic' });
    expect(data.highlightsAndBookmarks).toEqual([
      expect.objectContaining({
        kind: 'highlight',
        colour: 'green',
        note: 'Key idea',
        part: 1,
        quote: 'Every cell h',
      }),
    ]);
    expect(JSON.parse(JSON.stringify(data)).orders[0].number).toMatch(/^[0-9A-F-]{14}$/);

    await expect(downloadMyData(ctx, token)).rejects.toMatchObject({
      messageKey: 'privacy.error.linkUsed',
    });
  });

  it('issue 20: another account’s link is not found; an expired one says so', async () => {
    const owner = await person();
    await requestDataExport(owner);
    const { token } = await mailedToken(owner.user!.id, 'export');
    const other = await person();
    await expect(downloadMyData(other, token)).rejects.toBeInstanceOf(NotFound);
    const later = { ...owner, now: new Date(NOW.getTime() + 61 * 60_000) };
    await expect(downloadMyData(later, token)).rejects.toMatchObject({
      messageKey: 'privacy.error.linkExpired',
    });
    await expect(downloadMyData(owner, 'not-a-token')).rejects.toBeInstanceOf(NotFound);
    // The owner's link still works: neither attempt used it.
    expect((await downloadMyData(owner, token)).account?.id).toBe(owner.user!.id);
  });

  it('issue 20: links are throttled per account', async () => {
    const ctx = await person();
    for (let i = 0; i < 3; i += 1) await requestDataExport(ctx);
    await expect(requestDataExport(ctx)).rejects.toBeInstanceOf(TooManyRequests);
  });

  it('issue 20: the mail is in the account’s language, and its token is dropped once sent', async () => {
    const ctx = await person('fr-CA');
    await requestDataExport(ctx);
    const { payload } = await mailedToken(ctx.user!.id, 'export');
    const mail = await privacyLinkEmail(database.db, payload, ORIGIN);
    expect(mail!.subject).toBe('Téléchargez vos données Shelfmark');
    const sent: string[] = [];
    // Other tests share the outbox: drain it until this account's mail went (or nothing is due).
    for (let round = 0; round < 200 && !sent.includes(ctx.user!.email); round += 1) {
      await runOutboxOnce(database.db, async (message) => void sent.push(message.to), {
        now: new Date(Date.now() + 1000),
        publicOrigin: ORIGIN,
      });
    }
    expect(sent).toContain(ctx.user!.email);
    const rows = await database.db
      .select({ payload: outbox.payload, sentAt: outbox.sentAt })
      .from(outbox)
      .innerJoin(privacyRequests, eq(outbox.dedupeKey, sql`'privacy-' || ${privacyRequests.id}`))
      .where(eq(privacyRequests.userId, ctx.user!.id));
    expect(rows[0]!.sentAt).not.toBeNull();
    expect(rows[0]!.payload).not.toHaveProperty('token');
  });
});

describe('Delete my account (issue 20)', () => {
  it('issue 20: a wrong password changes nothing and mails nothing', async () => {
    const ctx = await person();
    expect(await requestAccountDeletion(ctx, 'wrong password', null)).toEqual({
      ok: false,
      error: 'privacy.error.wrongPassword',
    });
    const requests = await database.db
      .select()
      .from(privacyRequests)
      .where(eq(privacyRequests.userId, ctx.user!.id));
    expect(requests).toEqual([]);
  });

  it('issue 20: confirmed by mail, personal data goes, access ends, the order stays without personal data, signed out everywhere', async () => {
    const ctx = await person();
    const email = ctx.user!.email;
    const userId = ctx.user!.id;
    const orderId = await buyPrint(ctx);
    const session = await startSession(database.db, { userId, now: NOW });
    await database.db.insert(readingPositions).values({
      userId,
      productId: (
        await database.db
          .select({ productId: ownerships.productId })
          .from(ownerships)
          .where(eq(ownerships.userId, userId))
      )[0]!.productId,
      part: 3,
    });
    await database.db.insert(readerSettings).values({ userId, settings: { theme: 'dark' } });
    const [owned0] = await database.db
      .select({ productId: ownerships.productId })
      .from(ownerships)
      .where(eq(ownerships.userId, userId));
    await database.db.insert(readingAnnotations).values({
      userId,
      productId: owned0!.productId,
      kind: 'highlight',
      colour: 'yellow',
      note: 'mine',
      part: 0,
      startOffset: 0,
      endOffset: 4,
      exact: 'Cell',
    });
    await database.db.insert(userRoles).values({ userId, role: 'publisher' });
    await database.db.insert(analyticsEvents).values({ name: 'page_view', userId, path: '/shelf' });
    expect(await requestAccountDeletion(ctx, PASSWORD, null)).toEqual({ ok: true });
    const { token, payload } = await mailedToken(userId, 'delete');
    const mail = await privacyLinkEmail(database.db, payload, ORIGIN);
    expect(mail!.text).toContain(`${ORIGIN}/account/privacy/delete/${token}`);
    // Nothing is deleted before the link is confirmed.
    expect((await database.db.select().from(users).where(eq(users.id, userId)))[0]!.email).toBe(
      email,
    );

    await confirmAccountDeletion(ctx, token);

    const [account] = await database.db.select().from(users).where(eq(users.id, userId));
    expect(account).toEqual(
      expect.objectContaining({
        email: `deleted-${userId}@deleted.invalid`,
        firstName: '',
        lastName: '',
        passwordHash: null,
        isActive: false,
      }),
    );
    // The order and its payment are kept, pointing at the tombstone, without the address.
    const [order] = await database.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toEqual(
      expect.objectContaining({ userId, status: 'paid', totalCents: 5000, shippingAddress: null }),
    );
    expect(
      await database.db
        .select({ status: payments.status })
        .from(payments)
        .where(eq(payments.orderId, orderId)),
    ).toEqual([{ status: 'succeeded' }]);
    // Access ended; reading data, cart and sessions gone.
    const owned = await database.db
      .select({ revokedAt: ownerships.revokedAt, revokedReason: ownerships.revokedReason })
      .from(ownerships)
      .where(eq(ownerships.userId, userId));
    expect(owned.length).toBeGreaterThan(0);
    expect(owned.every((row) => row.revokedAt !== null)).toBe(true);
    expect(owned.every((row) => row.revokedReason === 'accountDeleted')).toBe(true);
    expect(
      await database.db.select().from(readingPositions).where(eq(readingPositions.userId, userId)),
    ).toEqual([]);
    expect(
      await database.db.select().from(readerSettings).where(eq(readerSettings.userId, userId)),
    ).toEqual([]);
    expect(
      await database.db
        .select()
        .from(readingAnnotations)
        .where(eq(readingAnnotations.userId, userId)),
    ).toEqual([]);
    expect(await database.db.select().from(carts).where(eq(carts.userId, userId))).toEqual([]);
    expect(await database.db.select().from(sessions).where(eq(sessions.userId, userId))).toEqual(
      [],
    );
    expect(await findSessionUser(database.db, session.token, NOW)).toBeNull();
    expect(await database.db.select().from(userRoles).where(eq(userRoles.userId, userId))).toEqual(
      [],
    );
    expect(
      await database.db
        .select()
        .from(loginAttempts)
        .where(sql`lower(${loginAttempts.email}) = lower(${email})`),
    ).toEqual([]);
    // Page views stay counted, no longer as anyone's.
    expect(
      await database.db.select().from(analyticsEvents).where(eq(analyticsEvents.userId, userId)),
    ).toEqual([]);
    expect(
      await database.db.select().from(deletedAccounts).where(eq(deletedAccounts.userId, userId)),
    ).toHaveLength(1);
    // The old password no longer signs in, under the old address or any.
    expect((await login(testContext(database.db), { email, password: PASSWORD })).ok).toBe(false);
    // The link is gone with the account's requests: it does nothing a second time.
    await expect(confirmAccountDeletion(ctx, token)).rejects.toBeInstanceOf(NotFound);
  });

  it('issue 20: the purge removes a deleted account’s orders only after the retention period', async () => {
    const gone = await person();
    const keptOrder = await buyPrint(gone);
    await requestAccountDeletion(gone, PASSWORD, null);
    await confirmAccountDeletion(gone, (await mailedToken(gone.user!.id, 'delete')).token);
    const live = await person();
    const liveOrder = await buyPrint(live);

    const sixYears = new Date('2032-11-27T14:00:00Z');
    await purgeRetainedOrders(database.db, sixYears, 7);
    expect(await database.db.select().from(orders).where(eq(orders.id, keptOrder))).toHaveLength(1);

    const eightYears = new Date('2034-11-27T14:00:00Z');
    expect(await purgeRetainedOrders(database.db, eightYears, 7)).toBeGreaterThanOrEqual(1);
    expect(await database.db.select().from(orders).where(eq(orders.id, keptOrder))).toEqual([]);
    expect(
      await database.db.select().from(payments).where(eq(payments.orderId, keptOrder)),
    ).toEqual([]);
    // A live account's order is never purged.
    expect(await database.db.select().from(orders).where(eq(orders.id, liveOrder))).toHaveLength(1);
  });
});

describe('the privacy page refuses bad input with a 4xx and changes nothing (issue 20)', () => {
  async function post(ctx: RequestContext, fields: Record<string, string>) {
    const result = await privacyAction({
      request: new Request('http://127.0.0.1/account/privacy', {
        method: 'POST',
        body: new URLSearchParams(fields),
      }),
      params: {},
      context: testWebContext(database, { user: ctx.user, now: ctx.now }),
    } as never);
    return result instanceof Response
      ? { status: result.status, data: null }
      : { status: result.init?.status, data: result.data };
  }

  it('issue 20: an unknown intent, an empty or wrong password, a fourth link in the hour', async () => {
    const ctx = await person();
    expect(await post(ctx, { intent: 'drop-tables' })).toEqual({
      status: 400,
      data: { errors: { form: 'error.invalid' }, retryAfterMinutes: 0 },
    });
    expect((await post(ctx, { intent: 'delete', password: '' })).data?.errors).toEqual({
      password: 'login.error.passwordRequired',
    });
    expect((await post(ctx, { intent: 'delete', password: 'nope' })).data?.errors).toEqual({
      password: 'privacy.error.wrongPassword',
    });
    for (let i = 0; i < 3; i += 1) expect((await post(ctx, { intent: 'export' })).status).toBe(302);
    expect(await post(ctx, { intent: 'export' })).toEqual({
      status: 429,
      data: { errors: { form: 'privacy.error.tooMany' }, retryAfterMinutes: 0 },
    });
  });

  it('issue 20: a malformed or unknown export link is a 404 with its message', async () => {
    const ctx = await person();
    for (const token of ['x', 'A'.repeat(43)]) {
      await expect(
        exportLoader({
          request: new Request(`http://127.0.0.1/account/privacy/export/${token}`),
          params: { token },
          context: testWebContext(database, { user: ctx.user, now: ctx.now }),
        } as never),
      ).rejects.toMatchObject({
        data: { messageKey: 'privacy.error.linkUnknown' },
        init: { status: 404 },
      });
    }
  });
});
