import { z } from 'zod';

// Ids are PostgreSQL integers: digits only, no sign or leading zero, at most 2147483647.
const MAX_INT = 2_147_483_647;
const positiveInt = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .refine((n) => n <= MAX_INT);

/** The {id} of /api/catalog-items/{id}, as it came in the path. */
export const catalogItemId = positiveInt;

/**
 * The query of GET /api/catalog-items/{id}: the ecommerce_course_id option (spec 2 §7), given
 * at most once. Other parameters (include, currency_code) are accepted and need nothing.
 */
export const catalogItemQuery = z.object({
  ecommerce_course_id: z.array(positiveInt).max(1).optional(),
});
export type CatalogItemQuery = z.infer<typeof catalogItemQuery>;
