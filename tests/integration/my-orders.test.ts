import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { orders, payments } from '#db/schema/commerce.ts';
import { organizations } from '#db/schema/sites.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { payOrder } from '#domain/commerce/checkout.ts';
import { myOrderReceipt, myOrders } from '#domain/commerce/my-orders.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, testWebContext, unique } from '#tests/database.ts';
import { loader as receiptPdfLoader } from '#web/accounts/order-receipt-pdf.tsx';

// Issue 20, Orders and receipts: My Account lists the user's own orders, newest first, with
// the offering bought, the amounts, the card's last four digits and the state; each has a
// receipt (page and PDF) with the store's, the organisation's and the buyer's details. Another
// user's order is not found, never shown.
let database: DatabaseHandle;
let gateway: TestGateway;
let orgId: number;
beforeAll(async () => {
  database = await openTestDatabase();
  gateway = new TestGateway(database.db);
  const [org] = await database.db
    .insert(organizations)
    .values({
      title: unique('Receipt University'),
      contactName: 'Bursar',
      phoneNumber: '+1 555 010 9999',
      emailAddress: 'bursar@receipt.example.edu',
      postalAddress: '1 Campus Way\nNorthfield, MN 55057',
    })
    .returning({ id: organizations.id });
  orgId = org!.id;
});
afterAll(async () => {
  await database?.close();
});

// 03:30 UTC on 28 November is still 27 November, 19:30, in Vancouver.
const NOW = new Date('2026-11-28T03:30:00Z');
const visa4242 = {
  kind: 'card' as const,
  card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' },
};

async function shopper(languageCode: 'en' | 'fr-CA' = 'en'): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('orders')}@example.test`,
      firstName: 'Sam',
      lastName: 'Reader',
      languageCode,
      orgId,
      timeZone: 'America/Vancouver',
    })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now: NOW, locale: languageCode });
}

async function rental(): Promise<{ offeringId: number; title: string }> {
  const title = unique('Orders Title');
  const productId = await insertProduct(database.db, { title }, { priceCents: null });
  const [row] = await database.db
    .insert(offerings)
    .values({
      productId,
      type: 'digital',
      bookType: 'digital',
      priceCents: 4399,
      durationDays: 180,
    })
    .returning({ id: offerings.id });
  return { offeringId: row!.id, title };
}

async function buy(ctx: RequestContext): Promise<{ orderId: string; title: string }> {
  const { offeringId, title } = await rental();
  await putInCart(ctx, { userId: ctx.user!.id }, { offeringId });
  const { orderId } = await placeOrder(ctx, { idempotencyKey: unique('orders') });
  expect(await payOrder(ctx, gateway, { orderId, method: visa4242 })).toEqual({ ok: true });
  return { orderId, title };
}

const numberOf = (orderId: string) =>
  orderId.replace(/-/g, '').slice(0, 12).toUpperCase().match(/.{4}/g)!.join('-');

describe('My Account → Orders (issue 20)', () => {
  it('issue 20: the order with its offering, amounts, Visa 4242 and state paid', async () => {
    const ctx = await shopper();
    const { orderId, title } = await buy(ctx);
    const list = await myOrders(ctx, 1);
    expect(list.count).toBe(1);
    const [order] = list.orders;
    expect(order!.id).toBe(orderId);
    expect(order!.number).toBe(numberOf(orderId));
    expect(order!.status).toBe('paid');
    expect(order!.card).toEqual({ brand: 'visa', last4: '4242' });
    expect(order!.items).toEqual([
      expect.objectContaining({
        title,
        priceCents: 4399,
        term: { productType: 'book', type: 'digital', durationDays: 180, isRental: false },
      }),
    ]);
    expect(order!.amounts).toEqual([
      { key: 'subtotal', cents: 4399 },
      { key: 'noTax', cents: 0 },
      { key: 'total', cents: 4399 },
    ]);
    expect(order!.refunds).toEqual([]);
  });

  it('issue 20: newest first, ten a page; a page past the end is the last', async () => {
    const ctx = await shopper();
    const ids: string[] = [];
    for (let i = 0; i < 11; i += 1) {
      const [row] = await database.db
        .insert(orders)
        .values({
          userId: ctx.user!.id,
          idempotencyKey: unique('page'),
          subtotalCents: 100 + i,
          totalCents: 100 + i,
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)),
        })
        .returning({ id: orders.id });
      ids.push(row!.id);
    }
    const first = await myOrders(ctx, 1);
    expect([first.page, first.pages, first.count]).toEqual([1, 2, 11]);
    expect(first.orders.map((o) => o.id)).toEqual(ids.slice(1).reverse());
    expect(first.orders[0]!.status).toBe('pending');
    const last = await myOrders(ctx, 99);
    expect(last.page).toBe(2);
    expect(last.orders.map((o) => o.id)).toEqual([ids[0]]);
  });

  it('issue 20: a refunded payment is listed and the order reads refunded', async () => {
    const ctx = await shopper();
    const { orderId } = await buy(ctx);
    await database.db.update(orders).set({ status: 'refunded' }).where(eq(orders.id, orderId));
    await database.db
      .update(payments)
      .set({ status: 'refunded', updatedAt: NOW })
      .where(eq(payments.orderId, orderId));
    const [order] = (await myOrders(ctx, 1)).orders;
    expect(order!.status).toBe('refunded');
    expect(order!.refunds).toEqual([{ amountCents: 4399, at: NOW }]);
    // The card that paid is still named.
    expect(order!.card).toEqual({ brand: 'visa', last4: '4242' });
  });

  it('issue 20: another user’s orders are not listed, and their receipt is not found', async () => {
    const buyer = await shopper();
    const { orderId } = await buy(buyer);
    const other = await shopper();
    expect((await myOrders(other, 1)).count).toBe(0);
    await expect(myOrderReceipt(other, orderId)).rejects.toBeInstanceOf(NotFound);
    for (const bad of ['nope', `${orderId}x`, '1', orderId.toUpperCase()]) {
      await expect(myOrderReceipt(buyer, bad)).rejects.toBeInstanceOf(NotFound);
    }
  });
});

describe('the receipt (issue 20)', () => {
  it('issue 20: the store, the organisation with its address, the buyer, the lines', async () => {
    const ctx = await shopper();
    const { orderId } = await buy(ctx);
    const receipt = await myOrderReceipt(ctx, orderId);
    expect(receipt.store).toEqual({
      name: ctx.site.title,
      host: ctx.site.host,
      addressLines: [],
      email: null,
    });
    // STORE_ADDRESS and STORE_EMAIL: the seller a scholarship office can write to.
    const seller = {
      addressLines: ['Shelfmark Learning Inc.', '100 Summer Street'],
      email: 'help@x.test',
    };
    expect((await myOrderReceipt(ctx, orderId, seller)).store).toEqual({
      name: ctx.site.title,
      host: ctx.site.host,
      ...seller,
    });
    expect(receipt.organization).toEqual(
      expect.objectContaining({
        contactName: 'Bursar',
        postalAddress: '1 Campus Way\nNorthfield, MN 55057',
      }),
    );
    expect(receipt.buyer).toEqual({ name: 'Sam Reader', email: ctx.user!.email });
    expect(receipt.placedAt).toEqual(NOW);
  });

  async function pdfOf(ctx: RequestContext, orderId: string) {
    const context = testWebContext(database, { user: ctx.user, now: ctx.now, locale: ctx.locale });
    const file = await receiptPdfLoader({
      request: new Request(`http://127.0.0.1/account/orders/${orderId}/receipt.pdf`),
      params: { orderId },
      context: {
        ...context,
        seller: { addressLines: ['100 Summer Street', 'Boston, MA 02110'], email: 'help@x.test' },
      },
    } as never);
    return new Response(file.data as BodyInit, file.init ?? {});
  }

  function pdfText(bytes: Uint8Array): string {
    const dir = mkdtempSync(path.join(tmpdir(), 'receipt-'));
    const file = path.join(dir, 'receipt.pdf');
    writeFileSync(file, bytes);
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  }

  it('issue 20: the PDF is an attachment holding the order number, lines, card and total', async () => {
    const ctx = await shopper();
    const { orderId, title } = await buy(ctx);
    const response = await pdfOf(ctx, orderId);
    expect(response.headers.get('Content-Type')).toBe('application/pdf');
    expect(response.headers.get('Content-Disposition')).toBe(
      `attachment; filename="receipt-${numberOf(orderId)}.pdf"`,
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const text = pdfText(bytes);
    expect(text).toContain(`Receipt for order ${numberOf(orderId)}`);
    expect(text).toContain(title);
    expect(text).toContain('180-day rental');
    expect(text).toContain('Paid with Visa ending in 4242');
    expect(text).toContain('Date: November 27, 2026');
    expect(text).toContain('1 Campus Way');
    expect(text).toContain('100 Summer Street');
    expect(text).toContain('E-mail: help@x.test');
    expect(text).toMatch(/Total\s+\$43\.99/);
  });

  it('issue 20: a French buyer’s PDF is in French', async () => {
    const ctx = await shopper('fr-CA');
    const { orderId } = await buy(ctx);
    const text = pdfText(new Uint8Array(await (await pdfOf(ctx, orderId)).arrayBuffer()));
    expect(text).toContain(`Reçu de la commande ${numberOf(orderId)}`);
    expect(text).toContain('Location de 180 jours');
    expect(text).toContain('Payé avec Visa se terminant par 4242');
    expect(text).toContain('27 novembre 2026');
    expect(text).toMatch(/\d{1,2} h \d{2} H[NA][A-Z]/);
    expect(text).toMatch(/Total\s+43,99 \$/);
  });

  it('issue 20: another user’s PDF is a 404, not a file', async () => {
    const { orderId } = await buy(await shopper());
    const other = await shopper();
    await expect(pdfOf(other, orderId)).rejects.toMatchObject({ init: { status: 404 } });
  });
});
