import { data, Form, Link, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { requestPasswordReset } from '#domain/accounts/password-reset.ts';
import { TextField } from '#web/components/text-field.tsx';
import { emailField, type FieldErrors, fieldErrors } from '#web/forms/fields.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/forgot-password.ts';

const ForgotSchema = z.object({ email: emailField });

// Issue 20: "Forgot your password?" The same answer whether or not an account uses the
// address; a link by mail when one does. Throttled per address and per IP.
export function loader({ context }: Route.LoaderArgs) {
  return { csrfToken: context.csrfToken };
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = Object.fromEntries(await request.formData());
  const email = String(form.email ?? '').slice(0, 254);
  const parsed = ForgotSchema.safeParse(form);
  if (!parsed.success) {
    return data(
      { errors: fieldErrors(parsed.error), email, sent: false, minutes: 0 },
      { status: 400 },
    );
  }
  const outcome = await requestPasswordReset(context.rc, parsed.data.email);
  if (!outcome.ok) {
    const errors: FieldErrors = { form: 'forgot.throttled' };
    return data(
      { errors, email, sent: false, minutes: outcome.retryAfterMinutes },
      { status: 429 },
    );
  }
  return { errors: {} as FieldErrors, email: parsed.data.email, sent: true, minutes: 0 };
}

export default function ForgotPasswordPage() {
  const { csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const errors: FieldErrors = result?.errors ?? {};
  return (
    <section className="narrow stack">
      <h1>{t('forgot.title')}</h1>
      {result?.sent ? (
        <output className="alert alert--success">
          {t('forgot.sent', { email: result.email })}
        </output>
      ) : (
        <>
          <p>{t('forgot.intro')}</p>
          {errors.form ? (
            <p className="alert alert--error" role="alert">
              {t(errors.form, { minutes: result?.minutes ?? 1 })}
            </p>
          ) : null}
          <Form method="post" className="stack" noValidate>
            <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
            <TextField
              name="email"
              label={t('login.email')}
              error={errors.email}
              type="email"
              autoComplete="email"
              required
              maxLength={254}
              defaultValue={result?.email ?? ''}
            />
            <button type="submit" className="button button--primary">
              {t('forgot.submit')}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to="/accounts/login/">{t('forgot.backToLogin')}</Link>
      </p>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'forgot.title');
