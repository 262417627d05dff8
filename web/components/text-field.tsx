import type { InputHTMLAttributes } from 'react';
import { useT } from '#web/i18n/use-t.ts';

/**
 * A labelled input with its error (a message id) tied to it for screen readers; every form
 * field renders through this one component.
 */
export function TextField({
  name,
  label,
  hint,
  error,
  errorParams,
  announceError,
  'aria-describedby': describedBy,
  ...input
}: {
  name: string;
  label: string;
  /** What the field expects, said under its label and read with it (e.g. a postal code's form). */
  hint?: string;
  error?: string;
  errorParams?: Record<string, string | number>;
  /** The error is read out as it appears (a form whose answer comes without a new page). */
  announceError?: boolean;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'name' | 'id'>) {
  const t = useT();
  const errorId = `${name}-error`;
  const hintId = `${name}-hint`;
  return (
    <div className="field">
      <label htmlFor={name}>{label}</label>
      {hint ? (
        <p className="form-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      <input
        id={name}
        name={name}
        {...input}
        aria-invalid={error ? true : undefined}
        aria-describedby={
          [error ? errorId : null, hint ? hintId : null, describedBy].filter(Boolean).join(' ') ||
          undefined
        }
      />
      {error ? (
        <p className="field__error" id={errorId} role={announceError ? 'alert' : undefined}>
          {t(error, errorParams)}
        </p>
      ) : null}
    </div>
  );
}
