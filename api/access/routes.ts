import { z } from 'zod';
import { confirmSectionCode } from '#domain/access/classroom.ts';
import { acquireAccessCode, heldAccessCode } from '#domain/access/codes.ts';
import { parseId } from '#domain/shared/id.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi, readJson } from '../errors.ts';

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
  const productId = parseId(params.productId);
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
  const productId = parseId(params.productId);
  if (productId === null) return apiError(context, 404, 'access.error.subscription');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  return accessCodeDocument(productId, await acquireAccessCode(context.rc, productId));
}

const sectionCodeBody = z.object({
  data: z.object({
    type: z.literal('ClassroomProduct'),
    attributes: z.object({ course_section_code: z.string().max(100).nullable() }),
  }),
});

/** POST /api/classroom-products/{productId}/redeem: confirms a classroom's section code. */
export async function postSectionCode(
  request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const productId = parseId(params.productId);
  if (productId === null) return apiError(context, 404, 'error.notFound');
  if (!context.rc.user) return apiError(context, 403, 'error.loginRequired');
  const parsed = sectionCodeBody.safeParse(await readJson(request));
  if (!parsed.success) return apiError(context, 400, 'error.invalid');
  const { sectionId } = await confirmSectionCode(context.rc, {
    productId,
    code: parsed.data.data.attributes.course_section_code ?? '',
  });
  return jsonApi({
    data: {
      type: 'ClassroomProduct',
      id: String(productId),
      attributes: { section_id: sectionId },
    },
  });
}
