import { describe, expect, it } from 'vitest';
import {
  displayStatus,
  type PaymentFacts,
  paymentState,
  refundsOf,
} from './order-display-status.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 27, 12, minute));
const payment = (overrides: Partial<PaymentFacts>): PaymentFacts => ({
  status: 'succeeded',
  amountCents: 4399,
  failure: null,
  updatedAt: at(0),
  ...overrides,
});

describe('displayStatus (issue 20: paid, pending, failed, refunded)', () => {
  it('issue 20: a paid or fulfilled order reads paid', () => {
    expect(displayStatus({ status: 'paid', totalCents: 4399 }, [payment({})])).toBe('paid');
    expect(displayStatus({ status: 'fulfilled', totalCents: 4399 }, [payment({})])).toBe('paid');
  });

  it('issue 20: a pending order reads pending until a payment attempt fails', () => {
    expect(displayStatus({ status: 'pending', totalCents: 4399 }, [])).toBe('pending');
    const declined = payment({ status: 'requires_payment_method', failure: 'card_declined' });
    expect(displayStatus({ status: 'pending', totalCents: 4399 }, [declined])).toBe('failed');
  });

  it('issue 20: the latest attempt decides: a later attempt in progress is pending again', () => {
    const declined = payment({
      status: 'requires_payment_method',
      failure: 'card_declined',
      updatedAt: at(1),
    });
    const retrying = payment({ status: 'requires_action', updatedAt: at(2) });
    expect(displayStatus({ status: 'pending', totalCents: 4399 }, [declined, retrying])).toBe(
      'pending',
    );
  });

  it('issue 20: a canceled order whose payment failed reads failed, else canceled', () => {
    const declined = payment({ status: 'canceled', failure: 'card_declined' });
    expect(displayStatus({ status: 'canceled', totalCents: 4399 }, [declined])).toBe('failed');
    expect(displayStatus({ status: 'canceled', totalCents: 4399 }, [])).toBe('canceled');
  });

  it('issue 20: refunded in full, or in part', () => {
    const refunded = payment({ status: 'refunded' });
    expect(displayStatus({ status: 'refunded', totalCents: 4399 }, [refunded])).toBe('refunded');
    const part = payment({ status: 'refunded', amountCents: 1000 });
    expect(displayStatus({ status: 'refunded', totalCents: 4399 }, [part])).toBe(
      'partiallyRefunded',
    );
    expect(displayStatus({ status: 'paid', totalCents: 4399 }, [payment({}), part])).toBe(
      'partiallyRefunded',
    );
  });

  it('issue 20: an order marked refunded with no refund on record reads refunded, not in part', () => {
    expect(displayStatus({ status: 'refunded', totalCents: 4399 }, [payment({})])).toBe('refunded');
    expect(displayStatus({ status: 'refunded', totalCents: 4399 }, [])).toBe('refunded');
  });

  it('issue 37: a charge that went through is never read as failed, whatever failed before it', () => {
    // The order is still pending (the crash came between the charge and the order's update);
    // the payment was declined once, then succeeded on a second card.
    const charged = payment({ status: 'succeeded', failure: 'card_declined', updatedAt: at(2) });
    expect(displayStatus({ status: 'pending', totalCents: 4399 }, [charged])).toBe('pending');
  });

  it('issue 20: refunds are the refunded payments, oldest first', () => {
    expect(
      refundsOf([
        payment({ status: 'refunded', amountCents: 200, updatedAt: at(5) }),
        payment({ status: 'succeeded' }),
        payment({ status: 'refunded', amountCents: 100, updatedAt: at(3) }),
      ]),
    ).toEqual([
      { amountCents: 100, at: at(3) },
      { amountCents: 200, at: at(5) },
    ]);
  });
});

describe('paymentState (issue 39: the help desk’s payments, line refunds counted)', () => {
  it('a succeeded payment reads refunded in full once its order’s line refunds reach its amount', () => {
    expect(paymentState({ status: 'succeeded', amountCents: 4399 }, 4399)).toEqual({
      kind: 'refunded',
    });
    expect(paymentState({ status: 'succeeded', amountCents: 4399 }, 5000)).toEqual({
      kind: 'refunded',
    });
  });
  it('partly refunded says by how much; none refunded says the gateway’s own status', () => {
    expect(paymentState({ status: 'succeeded', amountCents: 4399 }, 4398)).toEqual({
      kind: 'partiallyRefunded',
      refundedCents: 4398,
    });
    expect(paymentState({ status: 'succeeded', amountCents: 4399 }, 0)).toEqual({
      kind: 'gateway',
      status: 'succeeded',
    });
  });
  it('a payment that did not succeed keeps its status whatever was refunded', () => {
    expect(paymentState({ status: 'refunded', amountCents: 4399 }, 4399)).toEqual({
      kind: 'gateway',
      status: 'refunded',
    });
    expect(paymentState({ status: 'canceled', amountCents: 4399 }, 100)).toEqual({
      kind: 'gateway',
      status: 'canceled',
    });
  });
});
