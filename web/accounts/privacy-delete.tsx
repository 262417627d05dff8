import { Form, Link, redirect, useLoaderData } from 'react-router';
import { checkDeletionLink, confirmAccountDeletion } from '#domain/accounts/privacy.ts';
import { useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import { loggedOutHeaders } from '#web/utils/session-cookie.server.ts';
import type { Route } from './+types/privacy-delete.ts';

// /account/privacy/delete/{token} (issue 20, "Delete my account"): the mailed link asks once
// more; the POST deletes the account in one transaction (domain/accounts/privacy.ts) and this
// browser, like every other, is signed out.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  await checkDeletionLink(context.rc, params.token);
  return { csrfToken: context.csrfToken };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireUser(request, context);
  await confirmAccountDeletion(context.rc, params.token);
  return redirect('/account/privacy/deleted', {
    headers: loggedOutHeaders(context),
  });
});

export default function PrivacyDeletePage() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('privacy.confirm.title')}</h1>
      <p>{t('privacy.confirm.intro')}</p>
      <Form method="post" reloadDocument className="cluster">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <button type="submit" className="button button--primary">
          {t('privacy.confirm.button')}
        </button>
        <Link to="/account" className="button button--secondary">
          {t('privacy.confirm.cancel')}
        </Link>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'privacy.confirm.title');
