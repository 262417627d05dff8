import { and, eq, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { refunds } from '#db/schema/refunds.ts';
import { enqueue } from '#domain/notifications/outbox.ts';
import { auditActorOf, recordAudit } from '#domain/operations/audit.ts';
import { inOrgScope, type OrgScope } from '#domain/operations/staff-scope.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { Forbidden, NotFound } from '#domain/shared/errors.ts';
import type { PaymentGateway } from './payment-gateway.ts';
import { buyerRefundOption, type RefundPolicyOutcome, staffRefundCheck } from './refund-policy.ts';
import { LINE_REFUND_REFUSED_MAIL } from './refunds-email.ts';
import { type RefundLine, type RefundOrder, refundLines, refundOrder } from './refunds-facts.ts';
import { settleRefund } from './refunds-settle.ts';

// Refunds of order lines (issue 39, decision 038). The buyer asks from My Account › Orders:
// within the Refund Policy the line is refunded at once, otherwise the request goes to support
// with the policy's reason. Support and managers refund a line from the help desk, within the
// policy or, with a reason recorded, beyond it, and may refuse a request with a reason; each
// staff decision is audited on the order. Whatever is clicked twice or at once, a line is
// refunded once: the order row is locked while a line's refund is decided, and one refund row
// per line is all the database allows.

export type RefundOutcome =
  | { kind: 'refunded'; amountCents: number; title: string }
  /** Decided; the gateway has not confirmed yet (it is asked again shortly). */
  | { kind: 'processing'; title: string }
  | { kind: 'requested'; rule: string; title: string }
  | { kind: 'refused'; rule: string; title: string };

type Decision =
  | { kind: 'settle'; refundId: string; title: string; already?: boolean }
  | Exclude<RefundOutcome, { kind: 'refunded' | 'processing' }>;

function lineOf(lines: readonly RefundLine[], orderItemId: number): RefundLine {
  const line = lines.find((l) => l.orderItemId === orderItemId);
  if (!line) throw new NotFound();
  return line;
}

const keyOf = (orderItemId: number) => `order-item-${orderItemId}-refund`;

/**
 * Records the line's refund (a new row, or a request moved on) unless one is there already;
 * false when another caller got there first.
 */
async function recordRefund(
  tx: Queryable,
  order: RefundOrder,
  line: RefundLine,
  values: {
    status: 'requested' | 'approved' | 'refused';
    rule: string | null;
    reason: string | null;
    requestedById: number | null;
    decidedById: number | null;
    now: Date;
  },
): Promise<string | null> {
  const decided = values.status === 'requested' ? null : values.now;
  if (line.refund) {
    const [moved] = await tx
      .update(refunds)
      .set({
        status: values.status,
        reason: values.reason,
        decidedById: values.decidedById,
        decidedAt: decided,
      })
      .where(and(eq(refunds.id, line.refund.id), inArray(refunds.status, ['requested', 'refused'])))
      .returning({ id: refunds.id });
    return moved?.id ?? null;
  }
  const [made] = await tx
    .insert(refunds)
    .values({
      orderId: order.id,
      orderItemId: line.orderItemId,
      amountCents: line.priceCents,
      currencyCode: order.currencyCode,
      status: values.status,
      rule: values.rule,
      reason: values.reason,
      requestedById: values.requestedById,
      decidedById: values.decidedById,
      idempotencyKey: keyOf(line.orderItemId),
      createdAt: values.now,
      decidedAt: decided,
    })
    .onConflictDoNothing()
    .returning({ id: refunds.id });
  return made?.id ?? null;
}

async function settled(
  ctx: RequestContext,
  gateway: PaymentGateway,
  decision: Decision,
): Promise<RefundOutcome> {
  if (decision.kind !== 'settle') return decision;
  const outcome = await settleRefund(ctx.db, gateway, decision.refundId, ctx.now);
  return { ...outcome, title: decision.title };
}

/** The signed-in buyer asks for a line of their own order to be refunded. */
export async function requestRefund(
  ctx: RequestContext,
  gateway: PaymentGateway,
  input: { orderId: string; orderItemId: number },
): Promise<RefundOutcome> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const decision = await ctx.db.transaction(async (tx): Promise<Decision> => {
    const order = await refundOrder(tx, input.orderId, { lock: true });
    // Another user's order reads as not found, like one that does not exist.
    if (!order || order.userId !== user.id) throw new NotFound();
    const line = lineOf(await refundLines(tx, order), input.orderItemId);
    const option = buyerRefundOption(line.facts, ctx.now);
    if (option.kind === 'none') return { kind: 'refused', rule: option.rule, title: line.title };
    const status = option.kind === 'refundAtOnce' ? 'approved' : 'requested';
    const rule = option.kind === 'askSupport' ? option.rule : null;
    const id = await recordRefund(tx, order, line, {
      status,
      rule,
      reason: null,
      requestedById: user.id,
      decidedById: null,
      now: ctx.now,
    });
    if (!id)
      return { kind: 'refused', rule: 'ops.refunds.rule.alreadyRequested', title: line.title };
    return status === 'approved'
      ? { kind: 'settle', refundId: id, title: line.title }
      : { kind: 'requested', rule: rule!, title: line.title };
  });
  return settled(ctx, gateway, decision);
}

/** An order inside the staff member's scope, else not found (as one that does not exist). */
async function scopedOrder(
  tx: Queryable,
  scope: OrgScope,
  orderId: string,
  lock: boolean,
): Promise<RefundOrder> {
  const order = await refundOrder(tx, orderId, { lock });
  if (!order || !inOrgScope(scope, order.buyerOrgId)) throw new NotFound();
  return order;
}

export type StaffRefundOutcome =
  | RefundOutcome
  | { kind: 'invalid'; field: 'reason'; message: 'ops.refunds.error.reasonRequired' }
  /**
   * The line was refunded already (a double click, a colleague): nothing more is done; a
   * refund still on its way is asked for again with its own key (money once, decision 038), so
   * the page read after this answer shows it done.
   */
  | { kind: 'alreadyRefunded'; title: string };

/** Support or a manager refunds a line: within the policy, or beyond it with a reason. */
export async function refundLineAsStaff(
  ctx: RequestContext,
  gateway: PaymentGateway,
  scope: OrgScope,
  input: { orderId: string; orderItemId: number; reason: string },
): Promise<StaffRefundOutcome> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const reason = input.reason.trim();
  let invalid = false;
  const decision = await ctx.db.transaction(async (tx): Promise<Decision> => {
    const order = await scopedOrder(tx, scope, input.orderId, true);
    const line = lineOf(await refundLines(tx, order), input.orderItemId);
    if (line.refund?.status === 'approved' || line.refund?.status === 'refunded') {
      return { kind: 'settle', refundId: line.refund.id, title: line.title, already: true };
    }
    const check = staffRefundCheck(line.facts, ctx.now, reason);
    if (!check.ok && check.rule === 'ops.refunds.error.reasonRequired') {
      invalid = true;
      return { kind: 'refused', rule: check.rule, title: line.title };
    }
    if (!check.ok) return { kind: 'refused', rule: check.rule, title: line.title };
    const id = await recordRefund(tx, order, line, {
      status: 'approved',
      rule: policyRule(check.policy),
      reason: reason || null,
      requestedById: line.refund ? null : user.id,
      decidedById: user.id,
      now: ctx.now,
    });
    if (!id)
      return { kind: 'refused', rule: 'ops.refunds.rule.alreadyRefunded', title: line.title };
    await recordAudit(
      tx,
      auditActorOf(user),
      {
        orgId: order.buyerOrgId,
        objectType: 'order',
        objectId: order.id,
        action: 'refund',
        before: { item: line.title, refund: line.refund?.status ?? 'none' },
        after: { item: line.title, refund: 'approved', amountCents: line.priceCents },
        reason: reason || null,
      },
      ctx.now,
    );
    return { kind: 'settle', refundId: id, title: line.title };
  });
  if (invalid) {
    return { kind: 'invalid', field: 'reason', message: 'ops.refunds.error.reasonRequired' };
  }
  if (decision.kind === 'settle' && decision.already) {
    await settleRefund(ctx.db, gateway, decision.refundId, ctx.now);
    return { kind: 'alreadyRefunded', title: decision.title };
  }
  return settled(ctx, gateway, decision);
}

/**
 * Support says no to a buyer's request, with a reason the buyer's order page shows and a mail
 * tells them, in their language, in the same transaction (sent once per decision).
 */
export async function refuseRefundRequest(
  ctx: RequestContext,
  scope: OrgScope,
  input: { orderId: string; orderItemId: number; reason: string },
): Promise<
  | { kind: 'refused'; title: string }
  | { kind: 'invalid'; field: 'reason'; message: 'ops.refunds.error.reasonRequired' }
  | { kind: 'notRequested'; title: string }
> {
  const user = ctx.user;
  if (!user) throw new Forbidden();
  const reason = input.reason.trim();
  return ctx.db.transaction(async (tx) => {
    const order = await scopedOrder(tx, scope, input.orderId, true);
    const line = lineOf(await refundLines(tx, order), input.orderItemId);
    if (line.refund?.status !== 'requested') return { kind: 'notRequested', title: line.title };
    if (reason === '') {
      return { kind: 'invalid', field: 'reason', message: 'ops.refunds.error.reasonRequired' };
    }
    await tx
      .update(refunds)
      .set({ status: 'refused', reason, decidedById: user.id, decidedAt: ctx.now })
      .where(and(eq(refunds.id, line.refund.id), eq(refunds.status, 'requested')));
    await recordAudit(
      tx,
      auditActorOf(user),
      {
        orgId: order.buyerOrgId,
        objectType: 'order',
        objectId: order.id,
        action: 'refund.refuse',
        before: { item: line.title, refund: 'requested' },
        after: { item: line.title, refund: 'refused' },
        reason,
      },
      ctx.now,
    );
    await enqueue(tx, {
      kind: LINE_REFUND_REFUSED_MAIL,
      dedupeKey: `${LINE_REFUND_REFUSED_MAIL}:${line.refund.id}:${ctx.now.getTime()}`,
      payload: { refundId: line.refund.id },
      to: { userId: order.userId },
    });
    return { kind: 'refused', title: line.title };
  });
}

function policyRule(policy: RefundPolicyOutcome): string | null {
  return policy.kind === 'needsSupport' ? policy.rule : null;
}
