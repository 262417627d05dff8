import { z } from 'zod';

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
