import { applyGatewayEvent } from '#domain/commerce/payment-events.ts';
import { type GatewayEvent, InvalidSignature } from '#domain/commerce/payment-gateway.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi } from '../errors.ts';

/** Where Stripe posts its events; exempt from CSRF (server/csrf-exempt.ts), signed instead. */
export const STRIPE_WEBHOOK_PATH = '/api/payments/webhooks/stripe';

/** Stripe's events are a few kilobytes; anything near this is not one. */
const MAX_WEBHOOK_BYTES = 1_000_000;

/**
 * POST /api/payments/webhooks/stripe (issue 4): Stripe's notice about a payment. The body is
 * read raw, because the signature covers its exact bytes, then checked, then applied once
 * per event id. 200 tells Stripe to stop delivering it; a 5xx makes it try again later.
 */
export async function postStripeWebhook(request: Request, context: WebContext): Promise<Response> {
  // Without Stripe configured there is nothing here to notify.
  if (context.gateway.name !== 'stripe') return apiError(context, 404, 'error.notFound');
  const rawBody = await readRawBody(request, MAX_WEBHOOK_BYTES);
  if (rawBody === null) return apiError(context, 400, 'error.tooLarge');
  // The settlement is known the moment a signed event is in hand: its one instant, read before
  // any wait for the database (decision 041).
  const receivedAt = context.rc.clock();
  let event: GatewayEvent;
  try {
    event = context.gateway.parseEvent(
      rawBody,
      request.headers.get('stripe-signature'),
      receivedAt,
    );
  } catch (error) {
    if (!(error instanceof InvalidSignature)) throw error;
    context.log.warn({ reason: error.message }, 'stripe webhook refused');
    return apiError(context, 400, 'webhook.error.signature');
  }
  const outcome = await applyGatewayEvent(context.rc.db, 'stripe', event, receivedAt);
  const about = {
    eventId: event.id,
    type: event.providerType,
    paymentRef: event.payment?.ref ?? null,
    orderId: event.payment?.orderId ?? null,
    outcome,
  };
  if (outcome === 'conflict') {
    // Stripe took money the store cannot accept for this order: someone must refund it.
    context.log.error(about, 'stripe payment event refused by the order: refund needed');
  } else {
    context.log.info(about, 'stripe webhook');
  }
  return jsonApi({ meta: { received: true } });
}

/** The body as text, or null when it is longer than `limit` bytes (read no further). */
async function readRawBody(request: Request, limit: number): Promise<string | null> {
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
