import { acquireAccessCode, heldAccessCode } from '#domain/access/codes.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi } from '../errors.ts';

const ID = /^[1-9]\d{0,9}$/;

function productIdOf(raw: string | undefined): number | null {
  return raw && ID.test(raw) && Number(raw) <= 2_147_483_647 ? Number(raw) : null;
}

function accessCodeDocument(productId: number, held: { code: string; url: string | null } | null) {
  return jsonApi({
    data: {
      type: 'access-code',
      id: String(productId),
      attributes: { user_access_code: held?.code ?? null, access_code_url: held?.url ?? null },
    },
  });
}

/** GET /api/access-items/{productId}/access-code: the code the owner holds, or null. */
export async function getAccessCode(
  _request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const productId = productIdOf(params.productId);
  if (productId === null) return apiError(context, 404, 'access.error.subscription');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  return accessCodeDocument(productId, await heldAccessCode(context.rc, productId));
}

/** POST /api/access-items/{productId}/access-code: Acquire Access Code from the pool. */
export async function postAccessCode(
  _request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const productId = productIdOf(params.productId);
  if (productId === null) return apiError(context, 404, 'access.error.subscription');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  return accessCodeDocument(productId, await acquireAccessCode(context.rc, productId));
}
