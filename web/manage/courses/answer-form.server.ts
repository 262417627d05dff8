import { data, redirect } from 'react-router';
import type { z } from 'zod';
import type { Saved } from '#domain/courses/course-admin-service.ts';
import { fieldErrors } from '#web/forms/fields.ts';
import { type FormAnswer, typedValues } from './course-forms.ts';

/**
 * Issue 39: how every Course Manager form that saves a term, a course or a section is answered
 * (STYLE: parse → 400 with the field errors → one service → redirect). Its shape checked, then
 * its one service: a refusal — the shape's, the form's own (`refused`), or the rules' — comes back
 * 400 with each error beside its field and the values as typed, so the form shows them again,
 * with or without JavaScript; a save redirects to the page its notice shows on.
 */
export async function answerForm<T>(
  form: Record<string, FormDataEntryValue>,
  schema: z.ZodType<T>,
  save: (input: T) => Promise<Saved<string>>,
  savedTo: (id: number) => string,
  options: {
    refused?: Record<string, string>;
    answer?: Omit<FormAnswer, 'errors' | 'values'>;
  } = {},
) {
  const values = typedValues(form);
  const refuse = (errors: FormAnswer['errors']) =>
    data<FormAnswer>({ ...options.answer, errors, values }, { status: 400 });
  const parsed = schema.safeParse(form);
  if (!parsed.success || options.refused) {
    return refuse({ ...(parsed.success ? {} : fieldErrors(parsed.error)), ...options.refused });
  }
  const saved = await save(parsed.data);
  if (!saved.ok) return refuse(saved.errors);
  return redirect(savedTo(saved.id));
}
