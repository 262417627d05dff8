import { data } from 'react-router';
import { z } from 'zod';
import { parseId } from '#domain/shared/id.ts';
import { idField } from '#web/forms/fields.ts';

// Issue 39, Course Manager: the shapes its forms arrive in. Each field is a string of bounded
// length (a longer one is refused beside its field, nothing saved); what the values mean is
// the domain's to decide (domain/courses/section-rules.ts), which answers field by field.

const line = z
  .string({ error: 'ops.courses.error.required' })
  .max(1000, 'ops.courses.error.tooLong');
const blankable = line.optional().default('');

export const TermForm = z.object({
  title: line,
  termType: line,
  startDate: line,
  endDate: line,
});

export const CourseForm = z.object({
  name: line,
  department: line,
  number: line,
  courseType: line,
});

/** Editing a course: also the fee its running sections take if its type gains one. */
export const CourseEditForm = CourseForm.extend({ sectionFee: blankable });

export const SectionForm = z.object({
  name: line,
  number: blankable,
  termId: blankable,
  startDate: line,
  endDate: line,
  timeZone: line,
  optOutDate: line,
  optOutTime: line,
  dropDate: blankable,
  dropTime: blankable,
  optingMethod: line,
  fee: blankable,
  sectionCode: blankable,
});

/** What a refused form gets back: each error beside its field, and the values as typed. */
export type FormAnswer = {
  errors: Record<string, string | undefined>;
  values: Record<string, string>;
  /** Which of a page's forms it answers, where a page has several. */
  form?: string;
};

/** The organisation a new term or course is made in (the person's own, or a manager's pick). */
export const orgField = idField;

/** Values as typed, to put back in the form after a refusal (strings only, bounded). */
export function typedValues(form: Record<string, FormDataEntryValue>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(form)
      .filter(([key, value]) => typeof value === 'string' && key !== 'csrfmiddlewaretoken')
      .map(([key, value]) => [key, (value as string).slice(0, 1000)]),
  );
}

/** The success notices a page shows after a redirect (?done=…), and nothing else. */
export const DONE = [
  'termCreated',
  'termSaved',
  'termEnded',
  'courseCreated',
  'courseSaved',
  'sectionCreated',
  'sectionSaved',
  'sectionEnded',
  'memberAdded',
  'memberRole',
  'memberRemoved',
  'materialAdded',
  'materialRequired',
  'materialRemoved',
] as const;
export type Done = (typeof DONE)[number];

export function doneOf(url: string): Done | null {
  const done = new URL(url).searchParams.get('done');
  return (DONE as readonly string[]).includes(done ?? '') ? (done as Done) : null;
}

/** An id in the page's path: a malformed one is not found, like an unknown one. */
export function pathId(raw: string | undefined): number {
  const id = parseId(raw);
  if (id === null) throw data(null, { status: 404 });
  return id;
}
