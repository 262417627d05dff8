import { Form } from 'react-router';

/**
 * Issue 39: one line of a table changed in place by a choice and its button — a member's role,
 * whether a material is required. Each control is named for the line it changes.
 */
export function RowChoiceForm({
  intent,
  idName,
  id,
  csrfToken,
  name,
  defaultValue,
  options,
  choiceLabel,
  buttonText,
  buttonLabel,
}: {
  intent: string;
  /** The hidden field naming the line ('memberId', 'adoptionId'). */
  idName: string;
  id: number;
  csrfToken: string;
  name: string;
  defaultValue: string;
  options: readonly { value: string; label: string }[];
  choiceLabel: string;
  buttonText: string;
  buttonLabel: string;
}) {
  return (
    <Form method="post" className="cluster">
      <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name={idName} value={id} />
      <select id={`${name}-${id}`} name={name} defaultValue={defaultValue} aria-label={choiceLabel}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--secondary" aria-label={buttonLabel}>
        {buttonText}
      </button>
    </Form>
  );
}
