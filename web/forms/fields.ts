import { z } from 'zod';
import { parseId } from '#domain/shared/id.ts';

// Field schemas shared by several forms; messages are catalog ids, translated on render.
export const emailField = z
  .string({ error: 'login.error.emailRequired' })
  .trim()
  .min(1, 'login.error.emailRequired')
  .max(254, 'login.error.emailInvalid')
  .regex(/^[^@\s]+@[^@\s]+\.[^@\s]+$/, 'login.error.emailInvalid');

export const passwordField = z
  .string({ error: 'login.error.passwordRequired' })
  .min(1, 'login.error.passwordRequired')
  .max(1000, 'login.error.passwordRequired');

/**
 * An id in a form field (an offering, a course, a cart item, a product): decimal digits only,
 * read by the one id rule, so '0x10' or '1e3' is refused rather than read as another id.
 */
export const idField = z.string({ error: 'error.invalid' }).transform((raw, ctx) => {
  const id = parseId(raw);
  if (id === null) {
    ctx.addIssue({ code: 'custom', message: 'error.invalid' });
    return z.NEVER;
  }
  return id;
});

export type FieldErrors = Partial<Record<string, string>>;

/** First message id per field, for re-rendering a form with its errors (status 400). */
export function fieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? 'form');
    errors[key] ??= issue.message;
  }
  return errors;
}
