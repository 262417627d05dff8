import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// A stateful stand-in for Stripe's PaymentIntents API on 127.0.0.1, for tests of the flows
// where Stripe.js confirms a payment in the browser and the server reads it back. Its answers
// are the recorded PaymentIntent of tests/fixtures/stripe/ with this payment's id, amount,
// secret, metadata and state; what the browser's Stripe.js would do is `confirmInBrowser`.
// Nothing here reaches the internet.

type Intent = {
  id: string;
  amount: number;
  orderId: string;
  status: string;
  lastPaymentError: Record<string, string> | null;
};

export type StripeCall = { method: string; path: string; idempotencyKey: string | null };

export type StripeStandIn = {
  /** For StripeGateway's `apiBase`. */
  base: string;
  calls: StripeCall[];
  intents: Map<string, Intent>;
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
    client_secret: `${intent.id}_secret_standin`,
    metadata: { order_id: intent.orderId },
    status: intent.status,
    last_payment_error: intent.lastPaymentError,
    amount_received: intent.status === 'succeeded' ? intent.amount : 0,
  };
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Request-Id': 'req_standin' });
  res.end(JSON.stringify(body));
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
  let counter = 0;

  const server = createServer(async (req, res) => {
    const path = req.url ?? '';
    const key = req.headers['idempotency-key'];
    const idempotencyKey = typeof key === 'string' ? key : null;
    calls.push({ method: req.method ?? '', path, idempotencyKey });
    const form = await bodyOf(req);
    if (req.method === 'POST' && path === '/v1/payment_intents') {
      const known = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (known) return send(res, 200, intentJson(intents.get(known)!));
      counter += 1;
      const intent: Intent = {
        id: `pi_standin${process.pid}n${counter}`,
        amount: Number(form.get('amount')),
        orderId: form.get('metadata[order_id]') ?? '',
        status: 'requires_payment_method',
        lastPaymentError: null,
      };
      intents.set(intent.id, intent);
      if (idempotencyKey) byKey.set(idempotencyKey, intent.id);
      return send(res, 200, intentJson(intent));
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
