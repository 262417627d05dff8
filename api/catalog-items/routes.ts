import { catalogItem } from '#domain/catalog/service.ts';
import { cartOwnerOf } from '#domain/commerce/cart.ts';
import type { WebContext } from '#server/load-context.ts';
import { apiError, jsonApi } from '../errors.ts';
import { catalogItemDocument } from './serializer.ts';
import { catalogItemId, catalogItemQuery } from './validators.ts';

/**
 * GET /api/catalog-items/{id}[?ecommerce_course_id=N]: the product side sheet's catalog item
 * (spec 1 §2 Product side sheet, spec 2 §7). A malformed id is not found, like an unknown one.
 */
export async function getCatalogItem(
  request: Request,
  context: WebContext,
  params: Record<string, string>,
): Promise<Response> {
  const id = catalogItemId.safeParse(params.id);
  if (!id.success) return apiError(context, 404, 'error.notFound');
  const url = new URL(request.url);
  const courseIds = url.searchParams.getAll('ecommerce_course_id');
  const query = catalogItemQuery.safeParse(
    courseIds.length > 0 ? { ecommerce_course_id: courseIds } : {},
  );
  if (!query.success) {
    return apiError(context, 400, 'sheet.error.courseId', undefined, {
      parameter: 'ecommerce_course_id',
    });
  }
  const item = await catalogItem(
    context.rc,
    id.data,
    cartOwnerOf(context.rc.user, context.anonymousKey),
    context.catalogRc,
  );
  return jsonApi(
    catalogItemDocument(item, {
      origin: url.origin,
      ecommerceCourseId: query.data.ecommerce_course_id?.[0] ?? null,
      locale: context.rc.locale,
    }),
  );
}
