import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import { z } from 'zod';
import { campusForAddress, campusOffer } from '#domain/accounts/campus-sign-in-service.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { login } from '#domain/accounts/service.ts';
import { TextField } from '#web/components/text-field.tsx';
import { emailField, type FieldErrors, fieldErrors, passwordField } from '#web/forms/fields.ts';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/login.ts';
import { AccountLinks } from './account-links.tsx';
import { CampusSignInOffer, campusStartHref } from './campus-sign-in.tsx';
import { passkeySignIn } from './passkey-sign-in.server.ts';
import { PasskeySignIn } from './passkey-sign-in.tsx';
import { signIn } from './sign-in.server.ts';

const LoginSchema = z.object({
  email: emailField,
  password: passwordField,
  next: z.string().max(2000).optional(),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const query = new URL(request.url).searchParams;
  const next = safeNextPath(query.get('next'));
  // Already logged in: nothing to do here but go on (the page would say 'Redirecting...').
  if (context.rc.user) throw redirect(next);
  return {
    next,
    csrfToken: context.csrfToken,
    campus: await campusOffer(context.rc),
    // Issue 38: an address confirmed in another browser than the one that signed up.
    confirmed: query.get('confirmed') === '1',
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = LoginSchema.safeParse(form);
  const next = safeNextPath(typeof form.next === 'string' ? form.next : null);
  if (form.intent === 'passkey') return passkeySignIn(request, context, form, next);
  // A campus address and no password: on to the campus's own sign-in, as the page's hint says
  // (issue 20).
  if (!form.password && typeof form.email === 'string' && form.email.length <= 254) {
    const campus = await campusForAddress(context.rc, form.email);
    if (campus) return redirect(campusStartHref(campus.id, next, form.email));
  }
  if (!parsed.success) {
    return data(
      { errors: fieldErrors(parsed.error), email: String(form.email ?? '').slice(0, 254) },
      { status: 400 },
    );
  }
  const outcome = await login(context.rc, parsed.data);
  if (!outcome.ok) {
    const errors: FieldErrors =
      outcome.reason === 'throttled'
        ? { form: 'login.error.throttled' }
        : { form: 'login.error.invalid' };
    return data(
      {
        errors,
        email: parsed.data.email,
        retryAfterMinutes: outcome.reason === 'throttled' ? outcome.retryAfterMinutes : 0,
      },
      { status: outcome.reason === 'throttled' ? 429 : 400 },
    );
  }
  // A second factor, when the account has or needs one, comes before any session (issue 20).
  return signIn(context, { userId: outcome.userId, method: 'password', next });
}

export default function LoginPage() {
  const { next, csrfToken, campus, confirmed } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const t = useT();
  const root = useRootData();
  const errors: FieldErrors = result?.errors ?? {};
  const submitting =
    navigation.state !== 'idle' && navigation.formAction?.startsWith('/accounts/login');
  const retry = result && 'retryAfterMinutes' in result ? Number(result.retryAfterMinutes) : 0;
  return (
    <section className="narrow stack">
      <h1>{t('login.heading', { title: root?.site.title ?? 'Shelfmark' })}</h1>
      {confirmed ? <output className="alert alert--success">{t('login.confirmed')}</output> : null}
      {errors.form ? (
        <p className="alert alert--error" role="alert" id="login-error">
          {t(errors.form, { minutes: retry })}
        </p>
      ) : null}
      <Form
        method="post"
        className="stack"
        noValidate
        aria-describedby={errors.form ? 'login-error' : undefined}
      >
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <TextField
          name="email"
          label={t('login.email')}
          error={errors.email}
          type="email"
          autoComplete="username"
          required
          maxLength={254}
          defaultValue={result?.email ?? ''}
        />
        <TextField
          name="password"
          label={t('login.password')}
          error={errors.password}
          type="password"
          autoComplete="current-password"
          required
          maxLength={1000}
        />
        <button type="submit" className="button button--primary" disabled={submitting}>
          {submitting ? t('login.redirecting') : t('login.submit')}
        </button>
      </Form>
      <PasskeySignIn csrfToken={csrfToken} next={next} />
      <AccountLinks next={next} />
      <CampusSignInOffer offer={campus} next={next} email={result?.email ?? ''} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'login.title');
