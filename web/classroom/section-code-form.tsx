import { Form } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';

/**
 * The section-code prompt on the classroom page (spec 1 §4 Classroom redeem prompt): an owner
 * without a confirmed code enters the code here; a wrong one is said under the field.
 */
export function SectionCodeForm({ productId, error }: { productId: number; error: string | null }) {
  const t = useT();
  const csrfToken = useCsrfToken();
  const fieldId = `classroom-code-${productId}`;
  const errorId = `${fieldId}-error`;
  return (
    <section className="stack-sm" aria-labelledby="classroom-prompt">
      <h2 id="classroom-prompt">{t('classroom.prompt.title')}</h2>
      <Form method="post" className="stack-sm">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <input type="hidden" name="intent" value="section-code" />
        <p>{t('classroom.prompt')}</p>
        <div className="field">
          <label htmlFor={fieldId}>{t('classroom.code')}</label>
          <input
            id={fieldId}
            name="code"
            required
            maxLength={100}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
          {error ? (
            <p className="field__error" id={errorId}>
              {t(error)}
            </p>
          ) : null}
        </div>
        <p>
          <button type="submit" className="button button--primary">
            {t('classroom.confirm')}
          </button>
        </p>
      </Form>
    </section>
  );
}
