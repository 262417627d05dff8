import { Form } from 'react-router';
import { TextField } from '#web/components/text-field.tsx';
import { SelectField } from './select-field.tsx';

type Field = { name: string; label: string; defaultValue: string; error?: string };

/**
 * Issue 39: a line added to one of a section's lists — a member by e-mail with a role, a
 * material by ISBN or id, required or optional: what names it, typed; how it stands, chosen.
 */
export function AddLineForm({
  heading,
  intent,
  csrfToken,
  text,
  choice,
  submitLabel,
}: {
  heading: string;
  intent: string;
  csrfToken: string;
  text: Field & { hint: string; maxLength: number; type?: string };
  choice: Field & { options: readonly { value: string; label: string }[] };
  submitLabel: string;
}) {
  return (
    <Form method="post" className="stack narrow" noValidate>
      <h3>{heading}</h3>
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      <TextField {...text} required autoComplete="off" />
      <SelectField {...choice} />
      <p>
        <button type="submit" className="button button--primary">
          {submitLabel}
        </button>
      </p>
    </Form>
  );
}
