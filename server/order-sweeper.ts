import type { Queryable } from '#db/client.ts';
import { purgeRetainedOrders } from '#domain/accounts/privacy.ts';
import { expireAbandonedOrders } from '#domain/commerce/checkout.ts';
import type { PaymentGateway } from '#domain/commerce/payment-gateway.ts';
import {
  type RecoveryReport,
  reconcilePayments,
  refundDuplicateOrders,
} from '#domain/commerce/payment-recovery.ts';
import { recoverRefunds } from '#domain/commerce/refunds-settle.ts';
import { systemClock } from '#domain/shared/clock.ts';
import type { Logger } from './logger.ts';

/**
 * Money exactly once across crashes (issue 37): at start, every payment still open on our
 * side is asked about at the gateway (a process killed mid-payment leaves some), then every
 * few seconds the ones due (payment-recovery.ts): charges that went through settle their
 * orders, canceled ones release theirs, money for an order that no longer wants it and a
 * duplicate order's charge are refunded (logged here for staff, mailed to the buyer).
 * Every few minutes, orders abandoned mid-payment give their stock back (checkout.ts), and
 * the orders of deleted accounts older than ORDER_RETENTION_YEARS are purged (issue 20).
 * Several processes may run it at once: every change is a conditional update, and the
 * gateway's refund is idempotent.
 */
export function startOrderSweeper(options: {
  db: Queryable;
  gateway: PaymentGateway;
  log: Logger;
  retentionYears: number;
  intervalMs?: number;
  reconcileIntervalMs?: number;
}): () => Promise<void> {
  const { db, gateway, log } = options;
  const report = (recovered: RecoveryReport, refunded: RecoveryReport['refunded']) => {
    if (recovered.settled.length > 0) {
      log.warn({ orders: recovered.settled }, 'interrupted payments settled their orders');
    }
    if (recovered.released.length > 0) {
      log.info({ orders: recovered.released }, 'orders of canceled payments released');
    }
    for (const refund of [...recovered.refunded, ...refunded]) {
      // For staff: a charge the store gave back by itself, and why.
      log.warn(refund, 'charge refunded automatically');
    }
  };
  const reconcile = async (everything: boolean) => {
    const recovered = await reconcilePayments(db, gateway, systemClock, { everything });
    const now = new Date();
    const refunded = await refundDuplicateOrders(db, gateway, now);
    report(recovered, refunded);
    // Issue 39: line refunds a crash left between the gateway and the database.
    const lines = await recoverRefunds(db, gateway, now);
    if (lines.length > 0) log.warn({ refunds: lines }, 'interrupted line refunds settled');
  };

  let stopping = false;
  let reconciling: Promise<void> | null = null;
  const runReconcile = (everything: boolean) => {
    if (reconciling || stopping) return;
    reconciling = reconcile(everything)
      .catch((error: unknown) => log.warn({ err: error }, 'payment reconciliation failed'))
      .finally(() => {
        reconciling = null;
      });
  };
  runReconcile(true);
  const reconcileTimer = setInterval(
    () => runReconcile(false),
    options.reconcileIntervalMs ?? 5_000,
  );
  reconcileTimer.unref();

  let sweeping: Promise<void> | null = null;
  const timer = setInterval(
    () => {
      if (sweeping || stopping) return;
      sweeping = expireAbandonedOrders(db, gateway, systemClock)
        .then(async (count) => {
          if (count > 0) log.info({ count }, 'abandoned orders canceled');
          const purged = await purgeRetainedOrders(db, new Date(), options.retentionYears);
          if (purged > 0) log.info({ count: purged }, 'retained orders purged');
        })
        .catch((error: unknown) => log.warn({ err: error }, 'order sweep failed'))
        .finally(() => {
          sweeping = null;
        });
    },
    options.intervalMs ?? 5 * 60_000,
  );
  timer.unref();
  // Stopping (issue 40): nothing new starts; a pass under way ends first (each of its changes
  // is a conditional update, so one cut short by the deadline is safe to run again).
  return async () => {
    stopping = true;
    clearInterval(timer);
    clearInterval(reconcileTimer);
    await Promise.all([reconciling, sweeping]);
  };
}
