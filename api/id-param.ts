import { z } from 'zod';

// Ids are PostgreSQL integers: digits only, no sign or leading zero, at most 2147483647.
const MAX_INT = 2_147_483_647;

/** An `{id}` path segment as it came in (undecoded), read as a positive integer id. */
export const idParam = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .refine((n) => n <= MAX_INT);

/** An id inside a JSON body. */
export const idValue = z.number().int().positive().max(MAX_INT);
