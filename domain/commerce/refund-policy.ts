// The store's Refund Policy, once (issue 39; the Refund Policy page, `page.refund.body`: "Digital
// purchases can be refunded within 14 days if you have not read more than 10% of the title.
// Printed course materials are non-refundable. The platform fee is non-refundable."; spec 2
// constants: printed course materials non-refundable, platform fee non-refundable). Per order
// line: refundable at once, for support to decide (with the policy's reason), or never. Each
// outcome names its rule as a message id, so every page, mail and API says why the same way.
// The measure of "read" and the courseware rules are decision 038.
import type { OrderStatus } from './order-status.ts';

const DAY_MS = 86_400_000;

/** Staff's reasons are kept to what a person writes; longer is refused by the forms. */
export const MAX_REASON_LENGTH = 1000;

/** "within 14 days" of the payment. */
export const REFUND_WINDOW_DAYS = 14;
/** "not read more than 10% of the title". */
export const MAX_READ_SHARE = 0.1;

export type RefundRule =
  | 'ops.refunds.rule.withinPolicy'
  // Never (not even by support):
  | 'ops.refunds.rule.notPaid'
  | 'ops.refunds.rule.alreadyRefunded'
  | 'ops.refunds.rule.nothingPaid'
  | 'ops.refunds.rule.printed'
  // For support to decide:
  | 'ops.refunds.rule.notDigital'
  | 'ops.refunds.rule.pastWindow'
  | 'ops.refunds.rule.codeDelivered'
  | 'ops.refunds.rule.launched'
  | 'ops.refunds.rule.readUnmeasured'
  | 'ops.refunds.rule.readTooMuch';

export type RefundPolicyOutcome =
  | { kind: 'refundable'; rule: 'ops.refunds.rule.withinPolicy' }
  | {
      kind: 'needsSupport';
      rule: Exclude<
        RefundRule,
        | 'ops.refunds.rule.withinPolicy'
        | 'ops.refunds.rule.notPaid'
        | 'ops.refunds.rule.alreadyRefunded'
        | 'ops.refunds.rule.nothingPaid'
        | 'ops.refunds.rule.printed'
      >;
    }
  | {
      kind: 'never';
      rule:
        | 'ops.refunds.rule.notPaid'
        | 'ops.refunds.rule.alreadyRefunded'
        | 'ops.refunds.rule.nothingPaid'
        | 'ops.refunds.rule.printed';
    };

/** What the policy looks at for one order line (loaded by refunds-facts.ts). */
export type RefundLineFacts = {
  orderStatus: OrderStatus;
  paidAt: Date | null;
  priceCents: number;
  /** The offering bought: digital, combo, print, physical (a printed copy), physical_product. */
  offeringType: string;
  /** This line's refund so far, if any (refunds.status). */
  refundStatus: 'requested' | 'approved' | 'refunded' | 'refused' | null;
  /** Share of the title read since it was bought (readShare); null: read, but not measurable. */
  readShare: number | null;
  /** A courseware access code went to the buyer with this line. */
  codeDelivered: boolean;
  /** The buyer launched this courseware since buying it. */
  launched: boolean;
};

/** Printed course materials (spec 2 constants): a print-on-demand copy, a printed copy, a combo. */
const PRINTED = new Set(['print', 'physical', 'combo']);

export function refundPolicy(line: RefundLineFacts, now: Date): RefundPolicyOutcome {
  if (line.refundStatus === 'approved' || line.refundStatus === 'refunded') {
    return { kind: 'never', rule: 'ops.refunds.rule.alreadyRefunded' };
  }
  if (line.orderStatus === 'refunded') {
    return { kind: 'never', rule: 'ops.refunds.rule.alreadyRefunded' };
  }
  if ((line.orderStatus !== 'paid' && line.orderStatus !== 'fulfilled') || !line.paidAt) {
    return { kind: 'never', rule: 'ops.refunds.rule.notPaid' };
  }
  if (line.priceCents <= 0) return { kind: 'never', rule: 'ops.refunds.rule.nothingPaid' };
  if (PRINTED.has(line.offeringType)) return { kind: 'never', rule: 'ops.refunds.rule.printed' };
  // The policy promises a refund of digital purchases only; anything else is support's call.
  if (line.offeringType !== 'digital') {
    return { kind: 'needsSupport', rule: 'ops.refunds.rule.notDigital' };
  }
  if (now.getTime() - line.paidAt.getTime() > REFUND_WINDOW_DAYS * DAY_MS) {
    return { kind: 'needsSupport', rule: 'ops.refunds.rule.pastWindow' };
  }
  // A code shown to the buyer, or courseware opened, cannot be given back (decision 038).
  if (line.codeDelivered) return { kind: 'needsSupport', rule: 'ops.refunds.rule.codeDelivered' };
  if (line.launched) return { kind: 'needsSupport', rule: 'ops.refunds.rule.launched' };
  if (line.readShare === null) {
    return { kind: 'needsSupport', rule: 'ops.refunds.rule.readUnmeasured' };
  }
  if (line.readShare > MAX_READ_SHARE) {
    return { kind: 'needsSupport', rule: 'ops.refunds.rule.readTooMuch' };
  }
  return { kind: 'refundable', rule: 'ops.refunds.rule.withinPolicy' };
}

/**
 * How much of a title was read (decision 038): the parts of the book (EPUB spine items, PDF
 * pages) the reader turned to, weighted by their text length, over the whole book's text. A
 * book whose parts carry no text (a scanned PDF) weighs each part the same. Nothing turned to
 * is 0; turned to, but the book never measured, is null (not measurable).
 */
export function readShare(input: {
  /** The book's parts' text lengths as the server measured them; null: never measured. */
  partLengths: readonly number[] | null;
  /** The parts turned to since the purchase, repeats allowed. */
  partsOpened: readonly number[];
}): number | null {
  if (input.partsOpened.length === 0) return 0;
  const lengths = input.partLengths;
  if (!lengths || lengths.length === 0) return null;
  const total = lengths.reduce((sum, length) => sum + Math.max(0, length), 0);
  const weight = (part: number) => (total > 0 ? Math.max(0, lengths[part]!) : 1);
  const whole = total > 0 ? total : lengths.length;
  let read = 0;
  for (const part of new Set(input.partsOpened)) {
    if (Number.isInteger(part) && part >= 0 && part < lengths.length) read += weight(part);
  }
  return read / whole;
}

/** What the buyer may do with a line: ask (refunded at once or sent to support), or not. */
export type BuyerRefundOption =
  | { kind: 'refundAtOnce' }
  | { kind: 'askSupport'; rule: Extract<RefundPolicyOutcome, { kind: 'needsSupport' }>['rule'] }
  | {
      kind: 'none';
      rule:
        | Extract<RefundPolicyOutcome, { kind: 'never' }>['rule']
        | 'ops.refunds.rule.alreadyRequested'
        | 'ops.refunds.rule.refused';
    };

/** The buyer's side: a request already made (waiting, or refused by support) is not made again. */
export function buyerRefundOption(line: RefundLineFacts, now: Date): BuyerRefundOption {
  const policy = refundPolicy(line, now);
  if (policy.kind === 'never') return { kind: 'none', rule: policy.rule };
  if (line.refundStatus === 'requested') {
    return { kind: 'none', rule: 'ops.refunds.rule.alreadyRequested' };
  }
  if (line.refundStatus === 'refused') return { kind: 'none', rule: 'ops.refunds.rule.refused' };
  return policy.kind === 'refundable'
    ? { kind: 'refundAtOnce' }
    : { kind: 'askSupport', rule: policy.rule };
}

/** Staff's side: within the policy, or beyond it with a reason; never what the policy never allows. */
export function staffRefundCheck(
  line: RefundLineFacts,
  now: Date,
  reason: string,
):
  | { ok: true; policy: RefundPolicyOutcome }
  | { ok: false; rule: Extract<RefundPolicyOutcome, { kind: 'never' }>['rule'] }
  | { ok: false; rule: 'ops.refunds.error.reasonRequired' } {
  const policy = refundPolicy(line, now);
  if (policy.kind === 'never') return { ok: false, rule: policy.rule };
  if (policy.kind === 'needsSupport' && reason.trim() === '') {
    return { ok: false, rule: 'ops.refunds.error.reasonRequired' };
  }
  return { ok: true, policy };
}
