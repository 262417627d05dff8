import { Form } from 'react-router';

/**
 * Issue 39: one button that posts one change (end a term, remove a member…): the intent and
 * the ids it names travel as hidden fields with the CSRF token.
 */
export function PostButton({
  intent,
  fields = {},
  csrfToken,
  label,
  ariaLabel,
}: {
  intent: string;
  fields?: Record<string, string | number>;
  csrfToken: string;
  label: string;
  /** The button's name for screen readers where the label alone says not what it acts on. */
  ariaLabel?: string;
}) {
  return (
    <Form method="post">
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <button type="submit" className="button button--secondary" aria-label={ariaLabel}>
        {label}
      </button>
    </Form>
  );
}
