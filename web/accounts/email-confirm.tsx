import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { confirmEmailChange } from '#domain/accounts/profile.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/email-confirm.ts';

// Issue 20: the link sent to a new address. Opening it changes nothing; the button moves the
// account to the address, once, and the address counts as proved.
export function loader({ context }: Route.LoaderArgs) {
  return { csrfToken: context.csrfToken };
}

export async function action({ params, context }: Route.ActionArgs) {
  const outcome = await confirmEmailChange(context.rc, params.token);
  if (!outcome.ok) return data({ error: outcome.messageKey }, { status: 400 });
  throw redirect(
    context.rc.user
      ? '/account/profile?done=email'
      : `/accounts/login/?next=${encodeURIComponent('/account/profile?done=email')}`,
  );
}

export default function EmailConfirmPage() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('emailConfirm.title')}</h1>
      {result?.error ? (
        <div className="alert alert--error stack-sm" role="alert">
          <p>{t(result.error)}</p>
          <p>
            <Link to="/account/profile">{t('profile.title')}</Link>
          </p>
        </div>
      ) : (
        <>
          <p>{t('emailConfirm.intro')}</p>
          <Form method="post">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <button type="submit" className="button button--primary">
              {t('emailConfirm.submit')}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'emailConfirm.title');
