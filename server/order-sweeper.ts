import type { Queryable } from '#db/client.ts';
import { purgeRetainedOrders } from '#domain/accounts/privacy.ts';
import { expireAbandonedOrders } from '#domain/commerce/checkout.ts';
import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import type { Logger } from './logger.ts';

/**
 * Every few minutes, orders abandoned mid-payment give their stock back (checkout.ts), and the
 * orders of deleted accounts older than ORDER_RETENTION_YEARS are purged (issue 20).
 * Several processes may run it at once: each cancellation is a conditional update.
 */
export function startOrderSweeper(options: {
  db: Queryable;
  gateway: PaymentGateway;
  log: Logger;
  retentionYears: number;
  intervalMs?: number;
}): () => void {
  let running = false;
  const timer = setInterval(
    () => {
      if (running) return;
      running = true;
      expireAbandonedOrders(options.db, options.gateway, new Date())
        .then(async (count) => {
          if (count > 0) options.log.info({ count }, 'abandoned orders canceled');
          const purged = await purgeRetainedOrders(options.db, new Date(), options.retentionYears);
          if (purged > 0) options.log.info({ count: purged }, 'retained orders purged');
        })
        .catch((error: unknown) => options.log.warn({ err: error }, 'order sweep failed'))
        .finally(() => {
          running = false;
        });
    },
    options.intervalMs ?? 5 * 60_000,
  );
  timer.unref();
  return () => clearInterval(timer);
}
