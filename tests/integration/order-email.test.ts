import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings } from '#db/schema/catalog.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { putInCart } from '#domain/commerce/cart.ts';
import { completedOrder, payOrder } from '#domain/commerce/checkout.ts';
import { placeOrder } from '#domain/commerce/orders.ts';
import { TestGateway } from '#domain/commerce/test-gateway.ts';
import { orderConfirmationEmail } from '#domain/notifications/order-email.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { insertProduct } from '#tests/builders.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 19, "Know what you are buying and what you bought": the order mail and the order page
// carry the order number, the date in the buyer's time zone, each item with its offering, the
// card's last four digits, subtotal, fee and total; a print-only order does not say "Digital
// items are on your shelf now" and says when the print copy comes instead (spec 2 §9).
let database: DatabaseHandle;
let gateway: TestGateway;
beforeAll(async () => {
  database = process.env.DATABASE_URL
    ? await openDatabase({ url: process.env.DATABASE_URL, poolSize: 5 })
    : await openTestDatabase();
  gateway = new TestGateway(database.db);
});
afterAll(async () => {
  await database?.close();
});

// 03:30 UTC on 28 November is still 27 November in Vancouver.
const NOW = new Date('2026-11-28T03:30:00Z');
const ORIGIN = 'https://store.example.test';
const ADDRESS = {
  name: 'Sam Reader',
  line1: '1 Campus Way',
  line2: '',
  city: 'Northfield',
  region: 'MN',
  postalCode: '55057',
  country: 'US' as const,
};
const visa4242 = {
  kind: 'card' as const,
  card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2030, cvc: '123' },
};

async function shopper(languageCode: 'en' | 'fr-CA'): Promise<RequestContext> {
  const [row] = await database.db
    .insert(users)
    .values({
      email: `${unique('receipt')}@example.test`,
      firstName: 'Sam',
      languageCode,
      timeZone: 'America/Vancouver',
    })
    .returning({ id: users.id });
  const user = (await loadSessionUser(database.db, { userId: row!.id, impersonatorId: null }))!;
  return testContext(database.db, { user, now: NOW, locale: languageCode });
}

/** A product sold by one offering; the builder's own offering is left out. */
async function offering(values: {
  type: string;
  bookType: string;
  priceCents: number;
  durationDays?: number | null;
}): Promise<{ offeringId: number; title: string }> {
  const title = unique('Receipt Title');
  const productId = await insertProduct(database.db, { title }, { priceCents: null });
  const [row] = await database.db
    .insert(offerings)
    .values({ productId, ...values })
    .returning({ id: offerings.id });
  return { offeringId: row!.id, title };
}

async function buy(ctx: RequestContext, offeringId: number, shipped = false): Promise<string> {
  await putInCart(ctx, { userId: ctx.user!.id }, { offeringId });
  const { orderId } = await placeOrder(ctx, {
    idempotencyKey: unique('receipt'),
    ...(shipped ? { shippingAddress: ADDRESS } : {}),
  });
  expect(await payOrder(ctx, gateway, { orderId, method: visa4242 })).toEqual({ ok: true });
  return orderId;
}

const numberOf = (orderId: string) =>
  orderId.replace(/-/g, '').slice(0, 12).toUpperCase().match(/.{4}/g)!.join('-');

describe('the order mail says what was bought (issue 19)', () => {
  it('issue 19: number, date in the buyer’s time zone, the rental in words, Visa 4242, subtotal, fee and total', async () => {
    const ctx = await shopper('en');
    const { offeringId, title } = await offering({
      type: 'digital',
      bookType: 'digital',
      priceCents: 4399,
      durationDays: 180,
    });
    const orderId = await buy(ctx, offeringId);
    const mail = await orderConfirmationEmail(database.db, orderId, ORIGIN);
    const text = mail!.text;
    expect(text).toContain('Thank you for your order. Digital items are on your shelf now:');
    expect(text).toContain(`- ${title} (eBook · 180-day rental): $43.99`);
    expect(text).toContain(`Order number: ${numberOf(orderId)}`);
    expect(text).toContain('Order date: November 27, 2026');
    expect(text).toContain('Paid with Visa ending in 4242');
    expect(text).toContain('Subtotal: $43.99');
    // Issue 38: no fee line when no fee applies; the tax said, never silence.
    expect(text).not.toContain('Platform fee');
    expect(text).toContain('No sales tax charged: $0.00');
    expect(text).toContain('Total: $43.99');
    expect(text).toContain(`Your order: ${ORIGIN}/account/orders/${orderId}`);
    // Never more of the card than its last four digits.
    expect(text).not.toContain('4242 4242');
  });

  it('issue 19: a print-only order does not say the shelf sentence; it says the 7 - 10 business days', async () => {
    const ctx = await shopper('en');
    const { offeringId, title } = await offering({
      type: 'print',
      bookType: 'print',
      priceCents: 3599,
    });
    const orderId = await buy(ctx, offeringId, true);
    const text = (await orderConfirmationEmail(database.db, orderId, ORIGIN))!.text;
    expect(text).not.toContain('Digital items are on your shelf now');
    expect(text).toContain('Thank you for your order:');
    expect(text).toContain(`- ${title} (Print on demand · Shipped to you): $35.99`);
    // Issue 38: what posting costs is said, free shipping as Free (the test rate is 0).
    expect(text).toContain('Shipping: Free');
    expect(text).toContain('Total: $35.99');
    expect(text).toContain(
      'Print-on-demand copies are printed for you and ship in 7 - 10 business days.',
    );
    expect(text).toContain('Paid with Visa ending in 4242');
  });

  it('issue 19: in French for a French-speaking buyer', async () => {
    const ctx = await shopper('fr-CA');
    const { offeringId, title } = await offering({
      type: 'digital',
      bookType: 'digital',
      priceCents: 4399,
      durationDays: 180,
    });
    const orderId = await buy(ctx, offeringId);
    const text = (await orderConfirmationEmail(database.db, orderId, ORIGIN))!.text;
    // The amount as Intl writes it in fr-CA, with a no-break space before the sign.
    expect(text).toContain(
      `- ${title} (Livre numérique · Location de 180 jours)\u00a0: 43,99\u00a0$\u00a0US`,
    );
    expect(text).toContain(`Numéro de commande : ${numberOf(orderId)}`);
    expect(text).toContain('Date de la commande : 27 novembre 2026');
    expect(text).toContain('Payé avec Visa se terminant par 4242');
  });
});

describe('the order page carries the same facts (issue 19)', () => {
  it('issue 19: the owner’s completed order has its number, date, card, offering and next steps', async () => {
    const ctx = await shopper('en');
    const { offeringId } = await offering({
      type: 'print',
      bookType: 'print',
      priceCents: 3599,
    });
    const orderId = await buy(ctx, offeringId, true);
    const order = await completedOrder(ctx, orderId);
    expect(order.number).toBe(numberOf(orderId));
    expect(order.placedAt).toEqual(NOW);
    expect(order.card).toEqual({ brand: 'visa', last4: '4242' });
    expect(order.items[0]!.term).toEqual({
      productType: 'book',
      type: 'print',
      durationDays: null,
      isRental: false,
    });
    expect(order.next).toEqual({ onShelf: false, printed: true, posted: false });
    expect([order.subtotalCents, order.feeCents, order.totalCents]).toEqual([3599, 0, 3599]);
  });
});
