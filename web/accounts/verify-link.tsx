import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { afterConfirmation } from '#domain/accounts/email-confirmation.ts';
import { VERIFY_EMAIL_PATH } from '#domain/accounts/email-verification.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { verifyEmail } from '#domain/accounts/sign-up.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/verify-link.ts';
import { signIn } from './sign-in.server.ts';
import { clearSignupDevice, signupDevice } from './signup-device.server.ts';

// Issue 20: the mailed link. Opening it changes nothing (mail scanners open links too); the
// button proves the address, once. Then (issue 38, afterConfirmation): in the browser that
// signed up, the account is signed in (issue 37: sign-up does not) and goes on to `next`;
// elsewhere, the sign-in page, and `next` after it.
export function loader({ request, context }: Route.LoaderArgs) {
  return {
    next: safeNextPath(new URL(request.url).searchParams.get('next')),
    csrfToken: context.csrfToken,
  };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const next = safeNextPath(String(form.get('next') ?? '').slice(0, 2000));
  const outcome = await verifyEmail(context.rc, params.token, signupDevice(request));
  if (!outcome.ok) return data({ error: outcome.messageKey, other: false }, { status: 400 });
  const step = afterConfirmation({
    linkUserId: outcome.userId,
    signedInUserId: context.rc.user?.id ?? null,
    sameDevice: outcome.sameDevice,
  });
  switch (step) {
    case 'goOn':
      throw redirect(next);
    case 'otherAccount':
      return { error: null, other: true };
    case 'logIn':
      throw redirect(`/accounts/login/?next=${encodeURIComponent(next)}&confirmed=1`);
    case 'signIn': {
      // The link as a first factor: a second one is still asked where set.
      const signedIn = await signIn(context, {
        userId: outcome.userId,
        method: 'email-link',
        next,
      });
      signedIn.headers.append('Set-Cookie', clearSignupDevice(context));
      return signedIn;
    }
  }
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
