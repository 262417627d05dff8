import { data, Form, Link, useActionData, useNavigation } from 'react-router';
import {
  confirmTotpEnrolment,
  finishEnrolment,
  pendingEnrolment,
  startTotpEnrolment,
} from '#domain/accounts/second-factor-service.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { signedInHeaders } from '#web/utils/session-cookie.server.ts';
import type { Route } from './+types/login-enrol.ts';
import { RecoveryCodesList } from './recovery-codes-list.tsx';
import {
  clearStepCookie,
  SIGN_IN_STEP_COOKIE,
  sessionCookieFor,
  stepToken,
} from './sign-in.server.ts';
import { totpQrCode } from './totp-qr.server.ts';
import { TotpSetup } from './totp-setup.tsx';

// /accounts/login/enrol (issue 20): a manager or bookstore manager whose password was right
// but who has no authenticator sets one up here, before any session exists; the session
// starts with the first good code, and the recovery codes are shown that once.

export async function loader({ request, context }: Route.LoaderArgs) {
  const pending = await pendingEnrolment(context.rc, stepToken(request, SIGN_IN_STEP_COOKIE));
  const setup = pending ? await startTotpEnrolment(context.rc, pending.userId) : null;
  return {
    csrfToken: context.csrfToken,
    setup: setup
      ? {
          groupedSecret: setup.groupedSecret,
          uri: setup.uri,
          qrCode: await totpQrCode(setup.uri),
        }
      : null,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const token = stepToken(request, SIGN_IN_STEP_COOKIE);
  const pending = await pendingEnrolment(context.rc, token);
  if (!pending) return data({ error: 'login.verify.error.expired', minutes: 0 }, { status: 400 });
  const code = (await request.formData()).get('code');
  if (typeof code !== 'string' || code.trim() === '') {
    return data({ error: 'security.totp.error.required', minutes: 0 }, { status: 400 });
  }
  const outcome = await confirmTotpEnrolment(context.rc, {
    userId: pending.userId,
    code: code.slice(0, 100),
  });
  if (!outcome.ok) {
    return data(
      {
        error:
          outcome.reason === 'throttled'
            ? 'login.verify.error.throttled'
            : 'security.totp.error.invalid',
        minutes: outcome.reason === 'throttled' ? outcome.retryAfterMinutes : 0,
      },
      { status: outcome.reason === 'throttled' ? 429 : 400 },
    );
  }
  const finished = await finishEnrolment(context.rc, token);
  const headers = new Headers();
  headers.append('Set-Cookie', clearStepCookie(context, SIGN_IN_STEP_COOKIE));
  if (finished) {
    headers.append('Set-Cookie', await sessionCookieFor(context, finished));
    for (const [name, value] of Object.entries(signedInHeaders(context, finished.userId)))
      headers.set(name, value);
  }
  return data({ recoveryCodes: outcome.recoveryCodes, next: pending.next }, { headers });
}

export default function LoginEnrolPage({ loaderData }: Route.ComponentProps) {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const t = useT();
  if (result && 'recoveryCodes' in result) {
    return (
      <section className="narrow stack">
        <h1>{t('login.enrol.done')}</h1>
        <RecoveryCodesList codes={result.recoveryCodes} />
        <p>
          <Link to={result.next} className="button button--primary" reloadDocument>
            {t('login.enrol.continue')}
          </Link>
        </p>
      </section>
    );
  }
  const error = result && 'error' in result ? result : null;
  return (
    <section className="narrow stack">
      <h1>{t('login.enrol.title')}</h1>
      {loaderData.setup ? (
        <>
          <p>{t('login.enrol.required')}</p>
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="csrfmiddlewaretoken" value={loaderData.csrfToken} />
            <TotpSetup
              setup={loaderData.setup}
              error={error?.error}
              errorParams={{ minutes: error?.minutes ?? 0 }}
            />
            <button type="submit" className="button button--primary" disabled={busy}>
              {t('security.totp.confirm')}
            </button>
          </Form>
        </>
      ) : (
        <p className="alert alert--error" role="alert">
          {t('login.verify.error.expired')}{' '}
          <Link to="/accounts/login/">{t('login.verify.again')}</Link>
        </p>
      )}
    </section>
  );
}

export function shouldRevalidate() {
  // The recovery codes are on the page until the user goes on: the step they came from is gone.
  return false;
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'login.enrol.title');
