import { Form } from 'react-router';
import { useT } from '#web/i18n/use-t.ts';

// spec 1 §2 Search bar: a GET form with field terms, max 1000 characters, submits on enter.
export const SEARCH_MAX_LENGTH = 1000;

export function SearchBox({
  id = 'site-search',
  defaultValue = '',
}: {
  id?: string;
  defaultValue?: string;
}) {
  const t = useT();
  return (
    <Form method="get" action="/search" role="search" className="search-box">
      <label htmlFor={id} className="visually-hidden">
        {t('nav.search.label')}
      </label>
      <input
        id={id}
        type="search"
        name="terms"
        maxLength={SEARCH_MAX_LENGTH}
        placeholder={t('nav.search.placeholder')}
        defaultValue={defaultValue}
        autoComplete="off"
        enterKeyHint="search"
      />
      <button type="submit" className="button button--icon" aria-label={t('nav.search.submit')}>
        <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20" focusable="false">
          <path
            fill="currentColor"
            d="M10 2a8 8 0 0 1 6.32 12.9l5.39 5.4-1.41 1.4-5.4-5.38A8 8 0 1 1 10 2Zm0 2a6 6 0 1 0 0 12 6 6 0 0 0 0-12Z"
          />
        </svg>
      </button>
    </Form>
  );
}
