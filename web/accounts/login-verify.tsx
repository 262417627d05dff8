import { data, Form, Link, redirect, useActionData, useNavigation } from 'react-router';
import { pendingSecondFactor, verifySecondFactor } from '#domain/accounts/second-factor-service.ts';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/login-verify.ts';
import {
  clearStepCookie,
  SIGN_IN_STEP_COOKIE,
  startSignedIn,
  stepToken,
} from './sign-in.server.ts';

// /accounts/login/verify (issue 20): the second step of a sign-in whose account has an
// authenticator: the 6-digit code, or a recovery code. No session exists before it passes.

export async function loader({ request, context }: Route.LoaderArgs) {
  if (context.rc.user) throw redirect('/');
  const pending = await pendingSecondFactor(context.rc, stepToken(request, SIGN_IN_STEP_COOKIE));
  return { csrfToken: context.csrfToken, waiting: pending !== null };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const code = form.get('code');
  if (typeof code !== 'string' || code.trim() === '') {
    return data({ error: 'login.verify.error.required', minutes: 0 }, { status: 400 });
  }
  const token = stepToken(request, SIGN_IN_STEP_COOKIE);
  const outcome = await verifySecondFactor(context.rc, { token, code: code.slice(0, 100) });
  if (outcome.ok) {
    const headers = new Headers({ 'Set-Cookie': clearStepCookie(context, SIGN_IN_STEP_COOKIE) });
    return startSignedIn(context, outcome.pending, headers);
  }
  if (outcome.reason === 'expired') {
    return data({ error: 'login.verify.error.expired', minutes: 0 }, { status: 400 });
  }
  if (outcome.reason === 'throttled') {
    return data(
      { error: 'login.verify.error.throttled', minutes: outcome.retryAfterMinutes },
      { status: 429 },
    );
  }
  return data(
    {
      error: {
        replayed: 'login.verify.error.used',
        'recovery-used': 'login.verify.error.recoveryUsed',
        invalid: 'login.verify.error.invalid',
      }[outcome.reason],
      minutes: 0,
    },
    { status: 400 },
  );
}

export default function LoginVerifyPage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const t = useT();
  // No sign-in waits behind this browser's cookie (expired, used, or never started).
  const expired = result?.error === 'login.verify.error.expired' || !loaderData.waiting;
  return (
    <section className="narrow stack">
      <h1>{t('login.verify.title')}</h1>
      <p id="verify-hint">{t('login.verify.hint')}</p>
      {expired ? (
        <p className="alert alert--error" role="alert">
          {t('login.verify.error.expired')}{' '}
          <Link to="/accounts/login/">{t('login.verify.again')}</Link>
        </p>
      ) : (
        <Form method="post" className="stack" noValidate aria-describedby="verify-hint">
          <input type="hidden" name="csrfmiddlewaretoken" value={loaderData.csrfToken} />
          <TextField
            name="code"
            label={t('login.verify.code')}
            error={result?.error}
            errorParams={{ minutes: result?.minutes ?? 0 }}
            autoComplete="one-time-code"
            autoCapitalize="none"
            spellCheck={false}
            required
            maxLength={20}
          />
          <button type="submit" className="button button--primary" disabled={busy}>
            {t('login.verify.submit')}
          </button>
        </Form>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'login.verify.title');
