import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { safeNextPath } from '#domain/accounts/safe-next.ts';
import { signUp } from '#domain/accounts/sign-up.ts';
import { TextField } from '#web/components/text-field.tsx';
import { emailField, type FieldErrors, fieldErrors } from '#web/forms/fields.ts';
import { useRootData, useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/signup.ts';
import { NewPasswordField } from './password-field.tsx';
import { newSignupDevice } from './signup-device.server.ts';

const nameField = (required: string) =>
  z.string({ error: required }).trim().min(1, required).max(100, 'signup.error.nameTooLong');

const SignUpSchema = z.object({
  firstName: nameField('signup.error.firstName'),
  lastName: nameField('signup.error.lastName'),
  email: emailField,
  password: z
    .string({ error: 'password.error.tooShort' })
    .min(1, 'password.error.tooShort')
    .max(1000, 'password.error.tooLong'),
  language: z.string({ error: 'language.error.unsupported' }).max(20),
  next: z.string().max(2000).optional(),
});

// Issue 20: "Create an account" from the login page, and so from checkout (a guest who presses
// Checkout is sent to log in with `next`). A link to prove the address is mailed; the next page
// says so. The link signs the account in, in this browser (issue 38), and goes on to `next`.
export function loader({ request, context }: Route.LoaderArgs) {
  const next = safeNextPath(new URL(request.url).searchParams.get('next'));
  if (context.rc.user) throw redirect(next);
  return {
    next,
    csrfToken: context.csrfToken,
    locale: context.rc.locale,
    languages: context.rc.site.allowedLanguages,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const values = {
    firstName: String(form.firstName ?? '').slice(0, 100),
    lastName: String(form.lastName ?? '').slice(0, 100),
    email: String(form.email ?? '').slice(0, 254),
    language: String(form.language ?? '').slice(0, 20),
  };
  const parsed = SignUpSchema.safeParse(form);
  if (!parsed.success) {
    return data({ errors: fieldErrors(parsed.error), values, minutes: 0 }, { status: 400 });
  }
  const next = safeNextPath(parsed.data.next);
  // Issue 38: this browser is the one that signed up; its link, opened here, signs it in.
  const { device, cookie } = newSignupDevice(context);
  const outcome = await signUp(context.rc, { ...parsed.data, next, device });
  if (!outcome.ok) {
    const errors: FieldErrors = outcome.errors;
    if ('retryAfterMinutes' in outcome) {
      return data({ errors, values, minutes: outcome.retryAfterMinutes }, { status: 429 });
    }
    return data({ errors, values, minutes: 0 }, { status: 400 });
  }
  // Issue 37: the same answer whether the address was new or had an account (its owner is
  // mailed instead): a link is on its way. The new account signs in from that link opened in
  // this browser (verify-link.tsx, issue 38), which also proves the address.
  return data(
    { errors: {} as FieldErrors, values, minutes: 0, sent: parsed.data.email },
    { headers: { 'Set-Cookie': cookie } },
  );
}

export default function SignUpPage() {
  const { next, csrfToken, locale, languages } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const root = useRootData();
  const errors: FieldErrors = result?.errors ?? {};
  const values = result?.values;
  const loginHref = `/accounts/login/?next=${encodeURIComponent(next)}`;
  if (result && 'sent' in result) {
    return (
      <section className="narrow stack">
        <h1>{t('signup.sent.title')}</h1>
        <p>{t('signup.sent.body', { email: String(result.sent) })}</p>
        <p>{t('signup.sent.spam')}</p>
      </section>
    );
  }
  return (
    <section className="narrow stack">
      <h1>{t('signup.heading', { title: root?.site.title ?? 'Shelfmark' })}</h1>
      {errors.form ? (
        <p className="alert alert--error" role="alert">
          {t(errors.form, { minutes: result?.minutes ?? 1 })}
        </p>
      ) : null}
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <input type="hidden" name="next" value={next} />
        <TextField
          name="firstName"
          label={t('signup.firstName')}
          error={errors.firstName}
          autoComplete="given-name"
          required
          maxLength={100}
          defaultValue={values?.firstName ?? ''}
        />
        <TextField
          name="lastName"
          label={t('signup.lastName')}
          error={errors.lastName}
          autoComplete="family-name"
          required
          maxLength={100}
          defaultValue={values?.lastName ?? ''}
        />
        <TextField
          name="email"
          label={t('signup.email')}
          error={errors.email}
          type="email"
          autoComplete="email"
          required
          maxLength={254}
          defaultValue={values?.email ?? ''}
        />
        <NewPasswordField name="password" label={t('signup.password')} error={errors.password} />
        <div className="field">
          <label htmlFor="language">{t('signup.language')}</label>
          <select
            id="language"
            name="language"
            defaultValue={values?.language || locale}
            aria-invalid={errors.language ? true : undefined}
            aria-describedby={errors.language ? 'language-error' : undefined}
          >
            {languages.map((code) => (
              <option key={code} value={code} lang={code}>
                {t(`language.${code}`)}
              </option>
            ))}
          </select>
          {errors.language ? (
            <p className="field__error" id="language-error">
              {t(errors.language)}
            </p>
          ) : null}
        </div>
        <button type="submit" className="button button--primary">
          {t('signup.submit')}
        </button>
      </Form>
      <p>
        {t('signup.haveAccount')} <Link to={loginHref}>{t('signup.logIn')}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'signup.title');
