import { z } from 'zod';
import { idParam } from '../id-param.ts';

/** The {id} of /api/catalog-items/{id}, as it came in the path. */
export const catalogItemId = idParam;

/**
 * The query of GET /api/catalog-items/{id}: the ecommerce_course_id option (spec 2 §7), given
 * at most once. Other parameters (include, currency_code) are accepted and need nothing.
 */
export const catalogItemQuery = z.object({
  ecommerce_course_id: z.array(idParam).max(1).optional(),
});
export type CatalogItemQuery = z.infer<typeof catalogItemQuery>;
