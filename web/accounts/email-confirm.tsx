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
  if (!outcome.ok) return data({ error: outcome.messageKey, movedTo: null }, { status: 400 });
  if (context.rc.user?.id === outcome.userId) throw redirect('/account/profile?done=email');
  // Signed in as someone else: the page says what happened to which address, not to them.
  if (context.rc.user) return { error: null, movedTo: outcome.email };
  throw redirect(`/accounts/login/?next=${encodeURIComponent('/account/profile?done=email')}`);
}

export default function EmailConfirmPage() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('emailConfirm.title')}</h1>
      {result?.movedTo ? (
        <output className="alert alert--success">
          {t('emailConfirm.otherAccount', { email: result.movedTo })}
        </output>
      ) : result?.error ? (
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
