import { Form, Link } from 'react-router';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';

/** Radio choice of the allowed languages, posted to /account/language (works without JS). */
export function LanguageForm({
  next,
  onCancel,
  csrfToken,
}: {
  next: string;
  onCancel?: () => void;
  csrfToken?: string;
}) {
  const t = useT();
  const root = useRootData();
  const token = useCsrfToken(csrfToken);
  if (!root) return null;
  return (
    <Form
      method="post"
      action="/account/language"
      reloadDocument
      className="stack"
      onSubmit={(event) => {
        // spec 2 §7: the choice is also kept in local storage under LANG.
        const language = new FormData(event.currentTarget).get('language');
        try {
          if (typeof language === 'string') window.localStorage.setItem('LANG', language);
        } catch {
          // Storage blocked: the LANG cookie the server sets still carries the choice.
        }
      }}
    >
      <input type="hidden" name="csrfmiddlewaretoken" value={token ?? ''} />
      <input type="hidden" name="next" value={next} />
      <fieldset className="stack">
        <legend>{t('language.legend')}</legend>
        {root.site.allowedLanguages.map((code) => (
          <label key={code} className="radio">
            <input
              type="radio"
              name="language"
              value={code}
              defaultChecked={code === root.locale}
            />
            <span lang={code}>{t(`language.${code}`)}</span>
          </label>
        ))}
      </fieldset>
      <div className="button-row">
        {onCancel ? (
          <button type="button" className="button button--secondary" onClick={onCancel}>
            {t('language.cancel')}
          </button>
        ) : (
          <Link to={next} className="button button--secondary">
            {t('language.cancel')}
          </Link>
        )}
        <button type="submit" className="button button--primary" disabled={!token}>
          {t('language.continue')}
        </button>
      </div>
    </Form>
  );
}
