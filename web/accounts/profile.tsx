import { data, Form, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { changePassword, requestEmailChange } from '#domain/accounts/profile.ts';
import { hasPassword } from '#domain/accounts/second-factor-service.ts';
import { TextField } from '#web/components/text-field.tsx';
import { emailField, type FieldErrors, fieldErrors } from '#web/forms/fields.ts';
import { useT } from '#web/i18n/use-t.ts';
import { refuseWhileSwitched } from '#web/manage/helpdesk/impersonation-gate.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/profile.ts';
import { NewPasswordField } from './password-field.tsx';

// Checked by the domain: an account made by campus sign-in has none to give (checkItIsYou).
const currentPasswordField = z.string().max(1000, 'login.error.passwordRequired').default('');

const newPasswordField = z
  .string({ error: 'password.error.tooShort' })
  .min(1, 'password.error.tooShort')
  .max(1000, 'password.error.tooLong');

const ProfileSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('password'),
    currentPassword: currentPasswordField,
    newPassword: newPasswordField,
  }),
  z.object({
    intent: z.literal('email'),
    emailCurrentPassword: currentPasswordField,
    newEmail: emailField,
  }),
]);

// What a redirect to this page says happened (the reset link, the new address's link).
const DONE = {
  reset: 'profile.passwordReset',
  email: 'profile.emailChanged',
} as const;

// Issue 20, My Account › Profile: change the password (current one asked; the other devices
// are signed out), change the e-mail address (current password asked; confirmed by a link to
// the new address, a notice to the old one). Two plain forms, an `intent` each.
export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  refuseWhileSwitched(context, 'password');
  const done = new URL(request.url).searchParams.get('done');
  return {
    email: user.email,
    hasPassword: await hasPassword(context.rc, user.id),
    done: done === 'reset' || done === 'email' ? DONE[done] : null,
    csrfToken: context.csrfToken,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  requireUser(request, context);
  const form = Object.fromEntries(await request.formData());
  const intent = form.intent === 'email' ? 'email' : 'password';
  refuseWhileSwitched(context, intent);
  const newEmail = String(form.newEmail ?? '').slice(0, 254);
  const parsed = ProfileSchema.safeParse(form);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    // A form that names no known intent was not sent by this page: say so plainly.
    if (errors.intent) errors.form = 'error.invalid';
    return data({ intent, errors, newEmail, notice: null, minutes: 0 }, { status: 400 });
  }
  const outcome =
    parsed.data.intent === 'password'
      ? await changePassword(context.rc, {
          currentPassword: parsed.data.currentPassword,
          newPassword: parsed.data.newPassword,
          sessionToken: context.sessionToken,
        })
      : await requestEmailChange(context.rc, {
          currentPassword: parsed.data.emailCurrentPassword,
          newEmail: parsed.data.newEmail,
          sessionToken: context.sessionToken,
        });
  if (!outcome.ok) {
    const minutes = outcome.retryAfterMinutes ?? 0;
    const errors: FieldErrors = outcome.errors;
    return data(
      { intent, errors, newEmail, notice: null, minutes },
      { status: minutes ? 429 : 400 },
    );
  }
  const notice = intent === 'password' ? 'profile.passwordChanged' : 'profile.emailSent';
  return { intent, errors: {} as FieldErrors, newEmail, notice, minutes: 0 };
}

export default function ProfilePage() {
  const { email, hasPassword, done, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const errorsOf = (intent: string): FieldErrors =>
    result?.intent === intent ? result.errors : {};
  const passwordErrors = errorsOf('password');
  const emailErrors = errorsOf('email');
  const notice = result?.notice ?? done;
  return (
    <section className="narrow stack">
      <h1>{t('profile.title')}</h1>
      {notice ? (
        <output className="alert alert--success">
          {t(notice, { email: result?.newEmail || email })}
        </output>
      ) : null}
      {result?.errors.form ? (
        <p className="alert alert--error" role="alert">
          {t(result.errors.form, { minutes: result.minutes || 1 })}
        </p>
      ) : null}
      {hasPassword ? null : <p>{t('account.confirm.noPassword')}</p>}
      <section className="stack" aria-labelledby="password-heading">
        <h2 id="password-heading">{t('profile.passwordHeading')}</h2>
        <Form method="post" className="stack" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <input type="hidden" name="intent" value="password" />
          {hasPassword ? (
            <TextField
              name="currentPassword"
              label={t('profile.currentPassword')}
              error={passwordErrors.currentPassword}
              type="password"
              autoComplete="current-password"
              required
              maxLength={1000}
            />
          ) : null}
          <NewPasswordField
            name="newPassword"
            label={t('profile.newPassword')}
            error={passwordErrors.newPassword}
          />
          <button type="submit" className="button button--primary">
            {t('profile.savePassword')}
          </button>
        </Form>
      </section>
      <section className="stack" aria-labelledby="email-heading">
        <h2 id="email-heading">{t('profile.emailHeading')}</h2>
        <p>{t('profile.currentEmail', { email })}</p>
        <Form method="post" className="stack" noValidate>
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <input type="hidden" name="intent" value="email" />
          <TextField
            name="newEmail"
            label={t('profile.newEmail')}
            error={emailErrors.newEmail}
            type="email"
            autoComplete="email"
            required
            maxLength={254}
            defaultValue={result?.intent === 'email' && !result.notice ? result.newEmail : ''}
          />
          {hasPassword ? (
            <TextField
              name="emailCurrentPassword"
              label={t('profile.currentPassword')}
              error={emailErrors.emailCurrentPassword ?? emailErrors.currentPassword}
              type="password"
              autoComplete="current-password"
              required
              maxLength={1000}
            />
          ) : null}
          <button type="submit" className="button button--primary">
            {t('profile.saveEmail')}
          </button>
        </Form>
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'profile.title');
