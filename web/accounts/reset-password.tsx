import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { resetLinkRefusal, resetPassword } from '#domain/accounts/password-reset.ts';
import { type FieldErrors, fieldErrors } from '#web/forms/fields.ts';
import { useT } from '#web/i18n/use-t.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/reset-password.ts';
import { NewPasswordField } from './password-field.tsx';
import { signIn } from './sign-in.server.ts';

const ResetSchema = z.object({
  password: z
    .string({ error: 'password.error.tooShort' })
    .min(1, 'password.error.tooShort')
    .max(1000, 'password.error.tooLong'),
});

// Issue 20: the reset link. A used, expired or unknown link says so and offers a new one; a
// good one asks for the new password (same rules as sign-up), then every session of the
// account ends and this browser is signed in anew.
export async function loader({ params, context }: Route.LoaderArgs) {
  const refusal = await resetLinkRefusal(context.rc, params.token);
  return { refusal, csrfToken: context.csrfToken };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  const parsed = ResetSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ errors: fieldErrors(parsed.error) }, { status: 400 });
  const outcome = await resetPassword(context.rc, params.token, parsed.data.password);
  if (!outcome.ok) {
    const errors: FieldErrors = { [outcome.field]: outcome.messageKey };
    return data({ errors }, { status: 400 });
  }
  return signIn(context, {
    userId: outcome.userId,
    method: 'password',
    next: '/account/profile?done=reset',
  });
}

export default function ResetPasswordPage() {
  const { refusal, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const errors: FieldErrors = result?.errors ?? {};
  const linkError = refusal ?? errors.form;
  return (
    <section className="narrow stack">
      <h1>{t('reset.title')}</h1>
      {linkError ? (
        <div className="alert alert--error stack-sm" role="alert">
          <p>{t(linkError)}</p>
          <p>
            <Link to="/accounts/password/forgot/">{t('reset.askAgain')}</Link>
          </p>
        </div>
      ) : (
        <Form method="post" className="stack" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <NewPasswordField name="password" label={t('reset.password')} error={errors.password} />
          <button type="submit" className="button button--primary">
            {t('reset.submit')}
          </button>
        </Form>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'reset.title');
