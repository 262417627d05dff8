import { z } from 'zod';
import { recordEvent } from '#domain/analytics/service.ts';
import {
  cancelPayment,
  payOrder,
  resumePayment,
  startWalletPayment,
} from '#domain/commerce/checkout.ts';
import { impersonationRefusal } from '#domain/operations/helpdesk/impersonation.ts';
import { Forbidden } from '#domain/shared/errors.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';
import { idValue } from '../id-param.ts';

// The wallet button's calls (spec 1 §4 Wallet payment): create the payment, confirm it with
// the token the wallet hands over (test gateway), or read it back once Stripe.js has
// confirmed it in the browser (Stripe), or cancel it when the shopper closes the wallet.

const createBody = z.object({
  data: z.object({
    type: z.literal('payment'),
    attributes: z
      .object({
        offeringId: idValue,
        idempotencyKey: z.string().min(8).max(100),
        courseId: idValue.nullable().optional(),
      })
      .strict(),
  }),
});
const confirmBody = z.object({
  data: z.object({
    type: z.literal('payment'),
    attributes: z.object({ token: z.string().min(1).max(200) }).strict(),
  }),
});

function loggedIn(context: WebContext) {
  if (!context.rc.user) throw new Forbidden('error.loginRequired');
}

/** Issue 39: nobody pays for a person while acting as them (Switch Account). */
function payingForThemselves(context: WebContext) {
  const refusal = impersonationRefusal(context.rc.user, 'payment');
  if (refusal) throw new Forbidden(refusal);
}

/** POST /api/payments: an order for one offering and its payment; answers the amount. */
export async function postPayment(request: Request, context: WebContext): Promise<Response> {
  loggedIn(context);
  payingForThemselves(context);
  const parsed = createBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'error.invalid');
  const { offeringId, idempotencyKey, courseId } = parsed.data.data.attributes;
  try {
    const started = await startWalletPayment(context.rc, context.gateway, {
      offeringId,
      idempotencyKey,
      courseSectionId: courseId ?? null,
    });
    return jsonApi(
      {
        data: {
          type: 'payment',
          id: started.orderId,
          attributes: {
            amount: started.amountCents,
            currencyCode: 'USD',
            clientSecret: started.clientSecret,
          },
        },
      },
      // The payment's calls live under its order's id (confirm, resume, cancel).
      { status: 201, headers: { Location: `/api/payments/${started.orderId}` } },
    );
  } catch (error) {
    await paymentFailed(context, { step: 'create', offeringId });
    throw error;
  }
}

/** POST /api/payments/{orderId}/confirm: pays with the wallet's token. */
export async function postConfirm(
  request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  loggedIn(context);
  payingForThemselves(context);
  const parsed = confirmBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'error.invalid');
  const orderId = params.orderId!;
  const outcome = await payOrder(context.rc, context.gateway, {
    orderId,
    method: { kind: 'method', id: parsed.data.data.attributes.token },
    wallet: true,
  });
  if (!outcome.ok) {
    await paymentFailed(context, { step: 'confirm', reason: outcome.reason });
    return apiError(context, 402, `checkout.error.${outcome.reason}`);
  }
  return succeeded(orderId);
}

/**
 * POST /api/payments/{orderId}/resume: Stripe.js confirmed the payment in the browser (the
 * wallet's sheet, a bank's check); the server reads it back from the gateway and settles it.
 * What the browser says of the outcome is not trusted: only the gateway's answer pays.
 */
export async function postResume(
  _request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  loggedIn(context);
  payingForThemselves(context);
  const orderId = params.orderId!;
  const outcome = await resumePayment(context.rc, context.gateway, orderId);
  if (!outcome.ok) {
    await paymentFailed(context, { step: 'resume', reason: outcome.reason });
    return apiError(context, 402, `checkout.error.${outcome.reason}`);
  }
  return succeeded(orderId);
}

function succeeded(orderId: string): Response {
  return jsonApi({
    data: {
      type: 'payment',
      id: orderId,
      attributes: { status: 'succeeded', redirect: `/checkout/complete/${orderId}` },
    },
  });
}

/** POST /api/payments/{orderId}/cancel: the shopper closed the wallet without paying. */
export async function postCancel(
  _request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  loggedIn(context);
  await cancelPayment(context.rc, context.gateway, params.orderId!);
  return new Response(null, { status: 204 });
}

/** The failure analytics event of spec 1 §4 (Wallet payment). */
async function paymentFailed(
  context: WebContext,
  props: Record<string, string | number>,
): Promise<void> {
  await recordEvent(context.rc, {
    name: 'payment_failed',
    path: '/api/payments',
    props: { method: 'wallet', ...props },
  }).catch((error: unknown) => context.log.warn({ err: error }, 'payment_failed event lost'));
}
