import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import { z } from 'zod';
import { campusForAddress, campusOffer } from '#domain/accounts/campus-sign-in-service.ts';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { login, startSession } from '#domain/accounts/service.ts';
import { mergeAnonymousCart } from '#domain/commerce/cart.ts';
import { TextField } from '#web/components/text-field.tsx';
import { emailField, type FieldErrors, fieldErrors, passwordField } from '#web/forms/fields.ts';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { sessionCookie } from '#web/utils/session-cookie.server.ts';
import type { Route } from './+types/login.ts';
import { CampusSignInOffer } from './campus-sign-in.tsx';

const LoginSchema = z.object({
  email: emailField,
  password: passwordField,
  next: z.string().max(2000).optional(),
});

export async function loader({ request, context }: Route.LoaderArgs) {
  const next = safeNextPath(new URL(request.url).searchParams.get('next'));
  // Already logged in: nothing to do here but go on (the page would say 'Redirecting...').
  if (context.rc.user) throw redirect(next);
  return { next, csrfToken: context.csrfToken, campus: await campusOffer(context.rc) };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const parsed = LoginSchema.safeParse(form);
  const next = safeNextPath(typeof form.next === 'string' ? form.next : null);
  // A campus address and no password: the page offers 'Sign in with your campus' (issue 20).
  if (!form.password && typeof form.email === 'string' && form.email.length <= 254) {
    if (await campusForAddress(context.rc, form.email)) return { errors: {}, email: form.email };
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
  const session = await startSession(context.rc.db, {
    userId: outcome.userId,
    previousToken: context.sessionToken,
    now: context.rc.now,
  });
  // What the shopper put in the cart before logging in joins the account's cart (issue 4).
  if (context.anonymousKey) {
    await mergeAnonymousCart(context.rc, context.anonymousKey, outcome.userId);
  }
  return redirect(next, {
    headers: { 'Set-Cookie': sessionCookie(context, session.token, session.expiresAt) },
  });
}

export default function LoginPage() {
  const { next, csrfToken, campus } = useLoaderData<typeof loader>();
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
      <CampusSignInOffer offer={campus} next={next} email={result?.email ?? ''} />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'login.title');
