import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { orderItems, orders } from '#db/schema/commerce.ts';
import { refunds } from '#db/schema/refunds.ts';
import { mailLocale } from '#domain/notifications/mail-locale.ts';
import type { Email } from '#domain/notifications/order-email.ts';
import { formatMoney, translate } from '#i18n/translate.ts';
import { orderNumber } from './order-number.ts';

/** The outbox's kind for a declined refund request (its payload: the refund row's id). */
export const LINE_REFUND_REFUSED_MAIL = 'line-refund-refused';

/** What both refund mails say of a refund line: its state, amount, rule, reason, item and buyer. */
async function refundMailFacts(db: Queryable, refundId: string) {
  const [row] = await db
    .select({
      status: refunds.status,
      amountCents: refunds.amountCents,
      rule: refunds.rule,
      reason: refunds.reason,
      orderId: refunds.orderId,
      title: products.title,
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
    })
    .from(refunds)
    .innerJoin(orders, eq(orders.id, refunds.orderId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(orderItems, eq(orderItems.id, refunds.orderItemId))
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(refunds.id, refundId))
    .limit(1);
  return row ?? null;
}

/**
 * Issue 39: a refunded order line, in the buyer's language: what was refunded, from which
 * order, that the access ended, when the money arrives, and the receipt. Null if it is gone or
 * not (yet) refunded.
 */
export async function lineRefundEmail(
  db: Queryable,
  refundId: unknown,
  publicOrigin: string,
): Promise<Email | null> {
  if (typeof refundId !== 'string') return null;
  const row = await refundMailFacts(db, refundId);
  if (!row || row.status !== 'refunded') return null;
  const locale = mailLocale(row.languageCode);
  const say = (id: string, params?: Record<string, string | number>) =>
    translate(locale, id, params);
  return {
    to: row.email,
    subject: say('ops.refunds.email.subject', { title: row.title }),
    text: [
      say('email.order.greeting', { name: row.firstName }),
      '',
      say('ops.refunds.email.body', {
        amount: formatMoney(locale, row.amountCents, 'USD'),
        title: row.title,
        number: orderNumber(row.orderId),
      }),
      '',
      say('email.refund.when'),
      '',
      `${say('email.order.link')} ${publicOrigin}/account/orders/${row.orderId}`,
    ].join('\n'),
  };
}

/**
 * Issue 39: support or a manager declined the buyer's refund request. In the buyer's language:
 * which item of which order, the staff's reason as they wrote it, the Refund Policy's rule that
 * sent the request to support, that the access is unchanged, and the order. Null if the request
 * is gone or no longer declined (refunded since: that mail says so).
 */
export async function lineRefundRefusedEmail(
  db: Queryable,
  refundId: unknown,
  publicOrigin: string,
): Promise<Email | null> {
  if (typeof refundId !== 'string') return null;
  const row = await refundMailFacts(db, refundId);
  if (!row || row.status !== 'refused') return null;
  const locale = mailLocale(row.languageCode);
  const say = (id: string, params?: Record<string, string | number>) =>
    translate(locale, id, params);
  // The rule is a message id the policy chose (refund-policy.ts); anything else is not shown.
  const rule = row.rule?.startsWith('ops.refunds.rule.') ? say(row.rule) : null;
  return {
    to: row.email,
    subject: say('ops.refunds.refusedEmail.subject', { title: row.title }),
    text: [
      say('email.order.greeting', { name: row.firstName }),
      '',
      say('ops.refunds.refusedEmail.body', {
        title: row.title,
        number: orderNumber(row.orderId),
      }),
      '',
      say('ops.refunds.refusedEmail.reason', { reason: row.reason ?? '' }),
      ...(rule ? [say('ops.refunds.refusedEmail.rule', { rule })] : []),
      '',
      say('ops.refunds.refusedEmail.access', { title: row.title }),
      '',
      `${say('email.order.link')} ${publicOrigin}/account/orders/${row.orderId}`,
    ].join('\n'),
  };
}
