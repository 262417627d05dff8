import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';

/** A new password (sign-up, reset, profile), with the policy said beside it (issue 20). */
export function NewPasswordField({
  name,
  label,
  error,
}: {
  name: string;
  label: string;
  error?: string;
}) {
  const t = useT();
  const hintId = `${name}-hint`;
  return (
    <div className="stack-sm">
      <TextField
        name={name}
        label={label}
        error={error}
        type="password"
        autoComplete="new-password"
        required
        minLength={10}
        maxLength={1000}
        aria-describedby={hintId}
      />
      <p className="field__hint" id={hintId}>
        {t('password.hint')}
      </p>
    </div>
  );
}
