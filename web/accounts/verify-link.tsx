import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { VERIFY_EMAIL_PATH } from '#domain/accounts/email-verification.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { verifyEmail } from '#domain/accounts/sign-up.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/verify-link.ts';
import { signIn } from './sign-in.server.ts';

// Issue 20: the mailed link. Opening it changes nothing (mail scanners open links too); the
// button proves the address, once, and signs the account in (issue 37: sign-up does not), then
// on to `next`.
export function loader({ request, context }: Route.LoaderArgs) {
  return {
    next: safeNextPath(new URL(request.url).searchParams.get('next')),
    csrfToken: context.csrfToken,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const next = safeNextPath(String(form.get('next') ?? '').slice(0, 2000));
  const outcome = await verifyEmail(context.rc, params.token);
  if (!outcome.ok) return data({ error: outcome.messageKey, other: false }, { status: 400 });
  const done = `${VERIFY_EMAIL_PATH}?next=${encodeURIComponent(next)}`;
  if (context.rc.user?.id === outcome.userId) throw redirect(done);
  // Signed in as someone else: the link proved its own account's address, not theirs.
  if (context.rc.user) return { error: null, other: true };
  // Issue 37: sign-up no longer signs in (it answers alike whether the address had an account);
  // the link to its address does, as a first factor: a second one is still asked where set.
  return signIn(context, { userId: outcome.userId, method: 'email-link', next: done });
}

export default function VerifyLinkPage() {
  const { next, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('verifyEmail.title')}</h1>
      {result?.other ? (
        <output className="alert alert--success">{t('verifyLink.otherAccount')}</output>
      ) : result?.error ? (
        <div className="alert alert--error stack-sm" role="alert">
          <p>{t(result.error)}</p>
          <p>
            <Link to={VERIFY_EMAIL_PATH}>{t('verify.wayBack')}</Link>
          </p>
        </div>
      ) : (
        <>
          <p>{t('verifyLink.intro')}</p>
          <Form method="post">
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <input type="hidden" name="next" value={next} />
            <button type="submit" className="button button--primary">
              {t('verifyLink.submit')}
            </button>
          </Form>
        </>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'verifyEmail.title');
