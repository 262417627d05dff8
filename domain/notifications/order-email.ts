import { and, eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { offerings, products } from '#db/schema/catalog.ts';
import { orderItems, orders, payments } from '#db/schema/commerce.ts';
import { offeringNameWords } from '#domain/catalog/offering-terms.ts';
import { orderReceiptFacts } from '#domain/commerce/checkout.ts';
import { shippingCents } from '#domain/commerce/fulfilment-rules.ts';
import { orderNumber } from '#domain/commerce/order-number.ts';
import { orderNextSteps } from '#domain/commerce/order-receipt.ts';
import { paidWithMessage } from '#domain/commerce/payment-card.ts';
import {
  RECEIPT_ROW_LABELS,
  receiptAmounts,
  receiptRowValue,
} from '#domain/commerce/receipt-amounts.ts';
import { formatMoney, translate } from '#i18n/translate.ts';
import { mailLocale } from './mail-locale.ts';

export type Email = { to: string; subject: string; text: string };

/**
 * The order confirmation (issue 4), in the buyer's language; null if the order is gone. Issue
 * 19: its number, date (in the buyer's time zone) and card (last four), each item with its
 * offering in plain words, subtotal, fee and total, and what happens next; an order without
 * anything digital does not say its items are on the shelf.
 */
export async function orderConfirmationEmail(
  db: Queryable,
  orderId: string,
  publicOrigin: string,
): Promise<Email | null> {
  const [order] = await db
    .select({
      id: orders.id,
      subtotalCents: orders.subtotalCents,
      feeCents: orders.feeCents,
      shippingCents: orders.shippingCents,
      totalCents: orders.totalCents,
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
      timeZone: users.timeZone,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) return null;
  const locale = mailLocale(order.languageCode);
  const say = (id: string, params?: Record<string, string | number>) =>
    translate(locale, id, params);
  const money = (cents: number) => formatMoney(locale, cents, 'USD');
  const items = await db
    .select({
      title: products.title,
      priceCents: orderItems.priceCents,
      productType: products.productType,
      type: offerings.type,
      durationDays: offerings.durationDays,
      isRental: offerings.isRental,
    })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .innerJoin(offerings, eq(offerings.id, orderItems.offeringId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id);
  const receipt = await orderReceiptFacts(db, orderId);
  const next = orderNextSteps(items.map((item) => item.type));
  const lines = items.map((item) => {
    const words = offeringNameWords(say, item);
    return `- ${say('label.value', { label: `${item.title} (${words})`, value: money(item.priceCents) })}`;
  });
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: order.timeZone });
  const paidWith = receipt.card ? paidWithMessage(receipt.card) : null;
  return {
    to: order.email,
    subject: say('email.order.subject'),
    text: [
      say('email.order.greeting', { name: order.firstName }),
      '',
      say(next.onShelf ? 'email.order.intro' : 'email.order.introNoDigital'),
      '',
      ...lines,
      '',
      ...(next.printed ? [say('order.printOnDemand')] : []),
      ...(next.posted ? [say('order.posted')] : []),
      ...(next.printed || next.posted ? [''] : []),
      say('order.number', { number: receipt.number }),
      ...(receipt.placedAt ? [say('order.date', { date: day.format(receipt.placedAt) })] : []),
      ...(paidWith ? [say(paidWith.key, paidWith.params)] : []),
      '',
      // The order's amounts as every view shows them (receipt-amounts.ts).
      ...receiptAmounts({
        lineCents: items.map((item) => item.priceCents),
        feeCents: order.feeCents,
        shippingCents: shippingCents(
          items.map((item) => item.type),
          order.shippingCents,
        ),
      }).map((row) =>
        say('label.value', {
          label: say(RECEIPT_ROW_LABELS[row.key]),
          value: receiptRowValue(row, money, say),
        }),
      ),
      '',
      // The order's receipt on My Account (issue 20).
      `${say('email.order.link')} ${publicOrigin}/account/orders/${order.id}`,
    ].join('\n'),
  };
}

/**
 * A charge given back (issue 37), in the buyer's language; null if the order is gone. A
 * duplicate: the same items paid for a second time within minutes, refunded, the first order
 * kept. Otherwise money that reached an order no longer waiting for it (canceled, or paid
 * already), refunded.
 */
export async function paymentRefundEmail(
  db: Queryable,
  input: { orderId: string; ref: string; gateway: string; reason: unknown; duplicateOf: unknown },
  publicOrigin: string,
): Promise<Email | null> {
  const [row] = await db
    .select({
      amountCents: payments.amountCents,
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
    })
    .from(payments)
    .innerJoin(orders, eq(orders.id, payments.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(payments.orderId, input.orderId),
        eq(payments.gateway, input.gateway),
        eq(payments.gatewayRef, input.ref),
      ),
    )
    .limit(1);
  if (!row) return null;
  const locale = mailLocale(row.languageCode);
  const say = (id: string, params?: Record<string, string | number>) =>
    translate(locale, id, params);
  const amount = formatMoney(locale, row.amountCents, 'USD');
  const duplicateOf = typeof input.duplicateOf === 'string' ? input.duplicateOf : null;
  const kept = duplicateOf ?? input.orderId;
  return {
    to: row.email,
    subject: say('email.refund.subject'),
    text: [
      say('email.order.greeting', { name: row.firstName }),
      '',
      duplicateOf
        ? say('email.refund.duplicate', {
            amount,
            number: orderNumber(input.orderId),
            first: orderNumber(duplicateOf),
          })
        : say('email.refund.notPending', { amount, number: orderNumber(input.orderId) }),
      '',
      say('email.refund.when'),
      '',
      `${say('email.order.link')} ${publicOrigin}/account/orders/${kept}`,
    ].join('\n'),
  };
}
