import type { SelectHTMLAttributes } from 'react';
import { useT } from '#web/i18n/use-t.ts';

/**
 * Issue 39: a labelled select with its error (a message id) beside it and tied to it for
 * screen readers — TextField's companion for the course manager's forms.
 */
export function SelectField({
  name,
  label,
  error,
  options,
  idPrefix = '',
  ...select
}: {
  name: string;
  label: string;
  error?: string;
  options: readonly { value: string; label: string }[];
  /** Keeps ids unique when one page has two forms with a field of this name. */
  idPrefix?: string;
} & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'name' | 'id'>) {
  const t = useT();
  const id = `${idPrefix}${name}`;
  const errorId = `${id}-error`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        {...select}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      {error ? (
        <p className="field__error" id={errorId}>
          {t(error)}
        </p>
      ) : null}
    </div>
  );
}
