import { eq } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { products } from '#db/schema/catalog.ts';
import { orderItems, orders } from '#db/schema/commerce.ts';
import { isLocale } from '#domain/accounts/language.ts';
import { formatMoney, translate } from '#i18n/translate.ts';

export type Email = { to: string; subject: string; text: string };

/** The order confirmation (issue 4), in the buyer's language; null if the order is gone. */
export async function orderConfirmationEmail(
  db: Queryable,
  orderId: string,
  publicOrigin: string,
): Promise<Email | null> {
  const [order] = await db
    .select({
      id: orders.id,
      totalCents: orders.totalCents,
      email: users.email,
      firstName: users.firstName,
      languageCode: users.languageCode,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.userId))
    .where(eq(orders.id, orderId))
    .limit(1);
  if (!order) return null;
  const locale = isLocale(order.languageCode ?? '') ? (order.languageCode as 'en' | 'fr-CA') : 'en';
  const items = await db
    .select({ title: products.title, priceCents: orderItems.priceCents })
    .from(orderItems)
    .innerJoin(products, eq(products.id, orderItems.productId))
    .where(eq(orderItems.orderId, orderId))
    .orderBy(orderItems.id);
  const lines = items.map(
    (item) => `- ${item.title}: ${formatMoney(locale, item.priceCents, 'USD')}`,
  );
  return {
    to: order.email,
    subject: translate(locale, 'email.order.subject'),
    text: [
      translate(locale, 'email.order.greeting', { name: order.firstName }),
      '',
      translate(locale, 'email.order.intro'),
      '',
      ...lines,
      '',
      `${translate(locale, 'checkout.total')}: ${formatMoney(locale, order.totalCents, 'USD')}`,
      '',
      `${translate(locale, 'email.order.link')} ${publicOrigin}/checkout/complete/${order.id}`,
    ].join('\n'),
  };
}
