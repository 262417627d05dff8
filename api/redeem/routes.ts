import { z } from 'zod';
import { redeemCode } from '#domain/access/redeem.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';

const redeemBody = z.object({
  data: z.object({
    type: z.literal('redeem'),
    attributes: z.object({ code: z.string().max(1000).nullable() }),
  }),
});

/** POST /api/redeem: redeems a purchase code for the logged-in user (spec 1 §4 Redeem dialog). */
export async function postRedeem(request: Request, context: WebContext): Promise<Response> {
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  const parsed = redeemBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'redeem.error.empty');
  const redeemed = await redeemCode(context.rc, parsed.data.data.attributes.code);
  return jsonApi({
    data: {
      type: 'redeem',
      id: String(redeemed.productId),
      attributes: { productId: redeemed.productId, title: redeemed.title },
    },
  });
}
