import type { InputHTMLAttributes } from 'react';
import { useT } from '#web/i18n/use-t.ts';

/**
 * A labelled input with its error (a message id) tied to it for screen readers; every form
 * field renders through this one component.
 */
export function TextField({
  name,
  label,
  error,
  errorParams,
  'aria-describedby': describedBy,
  ...input
}: {
  name: string;
  label: string;
  error?: string;
  errorParams?: Record<string, string | number>;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>) {
  const t = useT();
  const errorId = `${name}-error`;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      <input
        id={name}
        name={name}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error ? errorId : null, describedBy].filter(Boolean).join(' ') || undefined
        }
      />
      {error ? (
        <p className="field__error" id={errorId}>
          {t(error, errorParams)}
        </p>
      ) : null}
    </div>
  );
}
