import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { resendVerification } from '#domain/accounts/sign-up.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/verify-email.ts';

// Issue 20: where a new account is told to prove its address, and where a refused purchase,
// free book or redemption leads ('Send a new link'): the address, why it matters, and a
// plain form for a new link (throttled).
export function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  return {
    email: user.email,
    verified: user.emailVerified,
    next: safeNextPath(new URL(request.url).searchParams.get('next')),
    csrfToken: context.csrfToken,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(request, context);
  const form = await request.formData();
  const next = safeNextPath(String(form.get('next') ?? '').slice(0, 2000));
  const outcome = await resendVerification(context.rc, next);
  if (outcome.ok) return { resent: true, minutes: 0 };
  if (outcome.reason === 'throttled') {
    return data({ resent: false, minutes: outcome.retryAfterMinutes }, { status: 429 });
  }
  return { resent: false, minutes: 0 };
}

export default function VerifyEmailPage() {
  const { email, verified, next, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  if (verified) {
    return (
      <section className="narrow stack">
        <h1>{t('verifyEmail.title')}</h1>
        <output className="alert alert--success">{t('verifyEmail.done')}</output>
        <p>
          <Link to={next} className="button button--primary">
            {t('verifyEmail.continue')}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <section className="narrow stack">
      <h1>{t('verifyEmail.title')}</h1>
      <p>{t('verifyEmail.sent', { email })}</p>
      <p>{t('verifyEmail.why')}</p>
      {result?.resent ? (
        <output className="alert alert--success">{t('verifyEmail.resent', { email })}</output>
      ) : result?.minutes ? (
        <p className="alert alert--error" role="alert">
          {t('verifyEmail.throttled', { minutes: result.minutes })}
        </p>
      ) : null}
      <Form method="post">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <button type="submit" className="button button--secondary">
          {t('verifyEmail.resend')}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'verifyEmail.title');
