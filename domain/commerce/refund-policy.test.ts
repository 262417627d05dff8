import { describe, expect, it } from 'vitest';
import {
  buyerRefundOption,
  type RefundLineFacts,
  readShare,
  refundPolicy,
  staffRefundCheck,
} from './refund-policy.ts';

const NOW = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(NOW.getTime() - days * DAY);

function line(overrides: Partial<RefundLineFacts> = {}): RefundLineFacts {
  return {
    orderStatus: 'paid',
    paidAt: daysAgo(3),
    priceCents: 4399,
    offeringType: 'digital',
    refundStatus: null,
    readShare: 0,
    codeDelivered: false,
    launched: false,
    ...overrides,
  };
}

const rule = (overrides: Partial<RefundLineFacts>) => refundPolicy(line(overrides), NOW);

describe('the Refund Policy, per order line (issue 39)', () => {
  it('issue 39: a digital book bought 3 days ago and not read is refundable at once', () => {
    expect(rule({})).toEqual({ kind: 'refundable', rule: 'ops.refunds.rule.withinPolicy' });
    expect(rule({ orderStatus: 'fulfilled' }).kind).toBe('refundable');
  });

  it('Refund Policy: "within 14 days" — 14 days to the millisecond is in, a moment later is support’s', () => {
    expect(rule({ paidAt: daysAgo(14) }).kind).toBe('refundable');
    expect(rule({ paidAt: new Date(daysAgo(14).getTime() - 1) })).toEqual({
      kind: 'needsSupport',
      rule: 'ops.refunds.rule.pastWindow',
    });
  });

  it('Refund Policy: "not read more than 10%" — exactly 10 % is in, more goes to support', () => {
    expect(rule({ readShare: 0.1 }).kind).toBe('refundable');
    expect(rule({ readShare: 0.1001 })).toEqual({
      kind: 'needsSupport',
      rule: 'ops.refunds.rule.readTooMuch',
    });
    expect(rule({ readShare: null })).toEqual({
      kind: 'needsSupport',
      rule: 'ops.refunds.rule.readUnmeasured',
    });
  });

  it('spec 2 constants: printed course materials are never refundable (print on demand, printed copy, combo)', () => {
    for (const offeringType of ['print', 'physical', 'combo']) {
      expect(rule({ offeringType })).toEqual({ kind: 'never', rule: 'ops.refunds.rule.printed' });
    }
  });

  it('decision 038: a delivered access code or launched courseware is for support to decide', () => {
    expect(rule({ codeDelivered: true }).rule).toBe('ops.refunds.rule.codeDelivered');
    expect(rule({ launched: true }).rule).toBe('ops.refunds.rule.launched');
    expect(rule({ offeringType: 'physical_product' }).rule).toBe('ops.refunds.rule.notDigital');
  });

  it('issue 39: an order not paid, a line already refunded or free, is never refunded', () => {
    expect(rule({ orderStatus: 'pending', paidAt: null }).rule).toBe('ops.refunds.rule.notPaid');
    expect(rule({ orderStatus: 'canceled' }).rule).toBe('ops.refunds.rule.notPaid');
    expect(rule({ orderStatus: 'refunded' }).rule).toBe('ops.refunds.rule.alreadyRefunded');
    expect(rule({ refundStatus: 'refunded' }).rule).toBe('ops.refunds.rule.alreadyRefunded');
    expect(rule({ refundStatus: 'approved' }).rule).toBe('ops.refunds.rule.alreadyRefunded');
    expect(rule({ priceCents: 0 }).rule).toBe('ops.refunds.rule.nothingPaid');
  });

  it('the first rule that applies is the one said: a refunded printed line says refunded', () => {
    expect(rule({ refundStatus: 'refunded', offeringType: 'print' }).rule).toBe(
      'ops.refunds.rule.alreadyRefunded',
    );
    expect(rule({ paidAt: daysAgo(20), readShare: 0.5 }).rule).toBe('ops.refunds.rule.pastWindow');
  });
});

describe('what the buyer may do (issue 39: My Account › Orders)', () => {
  it('within the policy: refunded at once; beyond it: a request to support with the reason', () => {
    expect(buyerRefundOption(line(), NOW)).toEqual({ kind: 'refundAtOnce' });
    expect(buyerRefundOption(line({ paidAt: daysAgo(30) }), NOW)).toEqual({
      kind: 'askSupport',
      rule: 'ops.refunds.rule.pastWindow',
    });
  });

  it('a request already waiting, or refused by support, is not asked again', () => {
    expect(buyerRefundOption(line({ refundStatus: 'requested' }), NOW)).toEqual({
      kind: 'none',
      rule: 'ops.refunds.rule.alreadyRequested',
    });
    expect(buyerRefundOption(line({ refundStatus: 'refused' }), NOW)).toEqual({
      kind: 'none',
      rule: 'ops.refunds.rule.refused',
    });
    expect(buyerRefundOption(line({ offeringType: 'print' }), NOW)).toEqual({
      kind: 'none',
      rule: 'ops.refunds.rule.printed',
    });
  });
});

describe('what support may do (issue 39: within or, with a reason, beyond the policy)', () => {
  it('within the policy no reason is needed; beyond it one is; never is never', () => {
    expect(staffRefundCheck(line(), NOW, '').ok).toBe(true);
    expect(staffRefundCheck(line({ readShare: 0.4 }), NOW, '  ')).toEqual({
      ok: false,
      rule: 'ops.refunds.error.reasonRequired',
    });
    expect(staffRefundCheck(line({ readShare: 0.4 }), NOW, 'Wrong edition').ok).toBe(true);
    expect(
      staffRefundCheck(line({ refundStatus: 'requested', paidAt: daysAgo(40) }), NOW, 'ok'),
    ).toMatchObject({ ok: true, policy: { kind: 'needsSupport' } });
    expect(staffRefundCheck(line({ offeringType: 'combo' }), NOW, 'Please')).toEqual({
      ok: false,
      rule: 'ops.refunds.rule.printed',
    });
  });
});

describe('how much of a title was read (decision 038)', () => {
  it('nothing turned to is 0, whether or not the book was measured', () => {
    expect(readShare({ partLengths: null, partsOpened: [] })).toBe(0);
    expect(readShare({ partLengths: [10, 90], partsOpened: [] })).toBe(0);
  });

  it('the parts turned to, weighted by their text, each counted once', () => {
    expect(readShare({ partLengths: [100, 400, 500], partsOpened: [0, 0, 0] })).toBe(0.1);
    expect(readShare({ partLengths: [100, 400, 500], partsOpened: [1, 0, 1] })).toBe(0.5);
  });

  it('a book without text (a scanned PDF) weighs each page the same; parts out of range are ignored', () => {
    expect(readShare({ partLengths: [0, 0, 0, 0], partsOpened: [2, 9, -1] })).toBe(0.25);
  });

  it('turned to but never measured: not measurable (null)', () => {
    expect(readShare({ partLengths: null, partsOpened: [0] })).toBeNull();
  });
});
