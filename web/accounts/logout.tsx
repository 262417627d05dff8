import { useEffect } from 'react';
import { Link, useFetcher } from 'react-router';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/logout.ts';

// spec 1 §2: 'Logging out...' with a link to the homepage, or 'Our apologies! Something went
// wrong.' when the result is not ok. The logout itself is a POST to /ajax/logout/.
export default function LogoutPage() {
  const t = useT();
  const root = useRootData();
  const fetcher = useFetcher();
  const csrfToken = root?.csrfToken ?? '';
  const { submit, state } = fetcher;
  useEffect(() => {
    if (root?.user && state === 'idle' && fetcher.data === undefined) {
      void submit({ csrfmiddlewaretoken: csrfToken }, { method: 'post', action: '/ajax/logout/' });
    }
  }, [root?.user, state, fetcher.data, submit, csrfToken]);
  const failed = state === 'idle' && fetcher.data !== undefined;
  return (
    <section className="narrow stack" aria-live="polite">
      {failed ? <h1>{t('logout.failed')}</h1> : <h1>{t('logout.loggingOut')}</h1>}
      <fetcher.Form method="post" action="/ajax/logout/">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <noscript>
          <button type="submit" className="button button--primary">
            {t('nav.logout')}
          </button>
        </noscript>
      </fetcher.Form>
      <p>
        <Link to="/">{t('logout.homepage')}</Link>
      </p>
    </section>
  );
}

export function ErrorBoundary() {
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('logout.failed')}</h1>
      <p>
        <Link to="/">{t('logout.homepage')}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'logout.title');
