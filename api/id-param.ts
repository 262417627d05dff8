import { z } from 'zod';
import { MAX_ID, parseId } from '#domain/shared/id.ts';

/** An `{id}` path segment or query value as it came in (undecoded), read by `parseId`. */
export const idParam = z.string().transform((raw, ctx) => {
  const id = parseId(raw);
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'error.invalid' });
    return z.NEVER;
  }
  return id;
});

/** An id inside a JSON body. */
export const idValue = z.number().int().positive().max(MAX_ID);
