import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stateful stand-in for Stripe's PaymentIntents API on 127.0.0.1, for tests of the flows
// where Stripe.js confirms a payment in the browser and the server reads it back. Its answers
// are the recorded PaymentIntent of tests/fixtures/stripe/ with this payment's id, amount,
// secret, metadata and state; what the browser's Stripe.js would do is `confirmInBrowser`.
// The server calls it through Stripe's Node library (decision 012), which sends what Stripe's
// API reads: form bodies with bracketed keys, a form Content-Type even on a GET, its own
// User-Agent headers. A request without what Stripe needs (the secret key, an amount and a
// currency) is refused as Stripe refuses it, and so is one without what our gateway always
// sends (the pinned Stripe-Version, an Idempotency-Key on each POST, the order id in the
// metadata), so a test fails loudly when either is lost. Nothing here reaches the internet.

type Intent = {
  id: string;
  amount: number;
  currency: string;
  orderId: string;
  status: string;
  lastPaymentError: Record<string, string> | null;
  /** Refunded in full through POST /v1/refunds (the intent itself stays `succeeded`). */
  refunded: boolean;
  /** What its refunds gave back, in cents (a refund of an `amount`, issue 39). */
  refundedCents: number;
};

type StandInRefund = { id: string; intent: string; amount: number };

export type StripeCall = { method: string; path: string; idempotencyKey: string | null };

export type StripeStandIn = {
  /** For StripeGateway's `apiBase` (STRIPE_API_BASE): an origin, `http://127.0.0.1:<port>`. */
  base: string;
  calls: StripeCall[];
  intents: Map<string, Intent>;
  /** The refunds made, by id. */
  refunds: Map<string, StandInRefund>;
  /**
   * What Stripe.js did with the payment in the shopper's browser: it succeeded, the card was
   * declined, or the bank's check was left unfinished.
   */
  confirmInBrowser(ref: string, outcome: 'succeeded' | 'declined' | 'requires_action'): void;
  close(): Promise<void>;
};

const created = JSON.parse(
  readFileSync(new URL('./fixtures/stripe/payment-intent-created.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

function intentJson(intent: Intent): Record<string, unknown> {
  return {
    ...created,
    id: intent.id,
    amount: intent.amount,
    currency: intent.currency,
    client_secret: `${intent.id}_secret_standin`,
    metadata: { order_id: intent.orderId },
    status: intent.status,
    last_payment_error: intent.lastPaymentError,
    amount_received: intent.status === 'succeeded' ? intent.amount : 0,
  };
}

function refundedCentsOf(intent: Intent): number {
  return intent.refunded ? Math.max(intent.refundedCents, intent.amount) : intent.refundedCents;
}

function refundJson(refund: StandInRefund, intent: Intent): Record<string, unknown> {
  return {
    id: refund.id,
    object: 'refund',
    amount: refund.amount,
    currency: intent.currency,
    payment_intent: intent.id,
    status: 'succeeded',
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': 'req_standin' });
  res.end(JSON.stringify(body));
}

const refusal = (message: string, code?: string) => ({
  error: { type: 'invalid_request_error', ...(code ? { code } : {}), message },
});

/** Why Stripe, or our gateway's own rules, would not take this request; null when fine. */
function refusalOf(req: IncomingMessage, path: string, form: URLSearchParams) {
  if (!/^Bearer (sk|rk)_test_\w+$/.test(req.headers.authorization ?? '')) {
    return { status: 401, body: refusal('Invalid API Key provided') };
  }
  if (!req.headers['stripe-version']) {
    return { status: 400, body: refusal('Stand-in: no Stripe-Version (the gateway pins one)') };
  }
  if (req.method === 'POST' && !req.headers['idempotency-key']) {
    return { status: 400, body: refusal('Stand-in: a POST without an Idempotency-Key') };
  }
  if (req.method === 'POST' && path === '/v1/payment_intents') {
    for (const name of ['amount', 'currency']) {
      if (!form.get(name)) {
        return {
          status: 400,
          body: refusal(`Missing required param: ${name}.`, 'parameter_missing'),
        };
      }
    }
    if (!/^[1-9]\d*$/.test(form.get('amount')!)) {
      return { status: 400, body: refusal('Invalid integer: amount', 'parameter_invalid_integer') };
    }
    if (!form.get('metadata[order_id]')) {
      return { status: 400, body: refusal('Stand-in: a payment without metadata[order_id]') };
    }
  }
  return null;
}

async function bodyOf(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const intents = new Map<string, Intent>();
  const byKey = new Map<string, string>();
  const calls: StripeCall[] = [];
  const refunds = new Map<string, StandInRefund>();
  const refundByKey = new Map<string, StandInRefund>();
  let counter = 0;
  let refundCounter = 0;

  const server = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://stand-in').pathname;
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : null;
    calls.push({ method: req.method ?? '', path, idempotencyKey });
    const form = await bodyOf(req);
    const refused = refusalOf(req, path, form);
    if (refused) return send(res, refused.status, refused.body);
    if (req.method === 'POST' && path === '/v1/payment_intents') {
      const known = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (known) return send(res, 200, intentJson(intents.get(known)!));
      counter += 1;
      const intent: Intent = {
        id: `pi_standin${process.pid}n${counter}`,
        amount: Number(form.get('amount')),
        currency: form.get('currency')!,
        orderId: form.get('metadata[order_id]') ?? '',
        status: 'requires_payment_method',
        lastPaymentError: null,
        refunded: false,
        refundedCents: 0,
      };
      intents.set(intent.id, intent);
      if (idempotencyKey) byKey.set(idempotencyKey, intent.id);
      return send(res, 200, intentJson(intent));
    }
    if (req.method === 'POST' && path === '/v1/refunds') {
      // The same key is the same refund, as Stripe answers a retried request.
      const again = idempotencyKey ? refundByKey.get(idempotencyKey) : undefined;
      if (again) return send(res, 200, refundJson(again, intents.get(again.intent)!));
      const refunded = intents.get(form.get('payment_intent') ?? '');
      if (!refunded) {
        return send(
          res,
          400,
          refusal('Missing required param: payment_intent.', 'parameter_missing'),
        );
      }
      if (refunded.status !== 'succeeded') {
        return send(
          res,
          400,
          refusal('This PaymentIntent does not have a successful charge to refund.'),
        );
      }
      const asked = form.get('amount');
      if (asked !== null && !/^[1-9]\d*$/.test(asked)) {
        return send(res, 400, refusal('Invalid integer: amount', 'parameter_invalid_integer'));
      }
      const left = refunded.amount - refundedCentsOf(refunded);
      const amount = asked === null ? left : Number(asked);
      if (left <= 0) {
        return send(
          res,
          400,
          refusal('Charge has already been refunded.', 'charge_already_refunded'),
        );
      }
      if (amount > left) {
        return send(
          res,
          400,
          refusal(
            `Refund amount (${amount}) is greater than unrefunded amount on charge (${left})`,
            'amount_too_large',
          ),
        );
      }
      refundCounter += 1;
      const refund: StandInRefund = {
        id: `re_standin${process.pid}n${refundCounter}`,
        intent: refunded.id,
        amount,
      };
      refunds.set(refund.id, refund);
      refunded.refundedCents += amount;
      refunded.refunded = refunded.refundedCents >= refunded.amount;
      if (idempotencyKey) refundByKey.set(idempotencyKey, refund);
      return send(res, 200, refundJson(refund, refunded));
    }
    const match = /^\/v1\/payment_intents\/([\w-]+)(\/cancel)?$/.exec(path);
    const intent = match ? intents.get(match[1]!) : undefined;
    if (!intent) {
      return send(res, 404, {
        error: { type: 'invalid_request_error', code: 'resource_missing', message: 'No such' },
      });
    }
    if (req.method === 'GET' && !match![2]) return send(res, 200, intentJson(intent));
    if (req.method === 'POST' && match![2]) {
      if (intent.status === 'succeeded') {
        return send(res, 400, {
          error: {
            type: 'invalid_request_error',
            code: 'payment_intent_unexpected_state',
            payment_intent: intentJson(intent),
          },
        });
      }
      intent.status = 'canceled';
      return send(res, 200, intentJson(intent));
    }
    return send(res, 400, { error: { type: 'invalid_request_error', message: 'Not played' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    intents,
    refunds,
    confirmInBrowser(ref, outcome) {
      const intent = intents.get(ref);
      if (!intent) throw new Error(`No payment ${ref} at the stand-in`);
      if (outcome === 'succeeded') {
        intent.status = 'succeeded';
      } else if (outcome === 'declined') {
        intent.status = 'requires_payment_method';
        intent.lastPaymentError = {
          type: 'card_error',
          code: 'card_declined',
          decline_code: 'generic_decline',
          message: 'Your card was declined.',
        };
      } else {
        intent.status = 'requires_action';
      }
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
