import { data, Form, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import { requestAccountDeletion, requestDataExport } from '#domain/accounts/privacy.ts';
import { hasPassword } from '#domain/accounts/second-factor-service.ts';
import { TooManyRequests } from '#domain/shared/errors.ts';
import { TextField } from '#web/components/text-field.tsx';
import { fieldErrors } from '#web/forms/fields.ts';
import { useT } from '#web/i18n/use-t.ts';
import { refuseWhileSwitched } from '#web/manage/helpdesk/impersonation-gate.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/privacy.ts';

// /account/privacy (issue 20, Privacy self-service): "Download my data" and "Delete my
// account", each confirmed by a link mailed to the account's address. Nothing is deleted here:
// the mailed link leads to /account/privacy/delete/{token}, which asks once more.
const PrivacySchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('export') }),
  // Checked by the domain: an account made by campus sign-in has none (checkItIsYou).
  z.object({
    intent: z.literal('delete'),
    password: z.string().max(1000, 'login.error.passwordRequired').default(''),
  }),
]);

export async function loader({ request, context }: Route.LoaderArgs) {
  const user = requireUser(request, context);
  refuseWhileSwitched(context, 'privacy');
  const sent = new URL(request.url).searchParams.get('sent');
  return {
    email: user.email,
    hasPassword: await hasPassword(context.rc, user.id),
    years: context.orderRetentionYears,
    sent: sent === 'export' || sent === 'delete' ? sent : null,
    csrfToken: context.csrfToken,
  };
}

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireUser(request, context);
  refuseWhileSwitched(context, 'privacy');
  const parsed = PrivacySchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    // A post without a known intent is no form of this page: say so above the forms.
    return data(
      { errors: errors.password ? errors : { form: 'error.invalid' }, retryAfterMinutes: 0 },
      { status: 400 },
    );
  }
  try {
    if (parsed.data.intent === 'export') {
      await requestDataExport(context.rc);
      return redirect('/account/privacy?sent=export');
    }
    const outcome = await requestAccountDeletion(
      context.rc,
      parsed.data.password,
      context.sessionToken,
    );
    if (!outcome.ok) {
      const throttled = outcome.error === 'login.error.throttled';
      const where = outcome.error === 'account.error.signInAgain' ? 'form' : 'password';
      return data(
        {
          errors: { [where]: outcome.error },
          retryAfterMinutes: throttled ? outcome.retryAfterMinutes : 0,
        },
        { status: throttled ? 429 : 400 },
      );
    }
  } catch (error) {
    // Too many links within the hour: said on the page, with the forms still there.
    if (error instanceof TooManyRequests) {
      return data({ errors: { form: error.messageKey }, retryAfterMinutes: 0 }, { status: 429 });
    }
    throw error;
  }
  return redirect('/account/privacy?sent=delete');
});

export default function PrivacyPage() {
  const { email, hasPassword, years, sent, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const errors: Partial<Record<string, string>> = result?.errors ?? {};
  return (
    <section className="narrow stack">
      <h1>{t('privacy.title')}</h1>
      {errors.form ? (
        <p role="alert" className="alert alert--error">
          {t(errors.form)}
        </p>
      ) : sent ? (
        <output className="alert alert--success">
          {t(sent === 'export' ? 'privacy.export.sent' : 'privacy.delete.sent', { email })}
        </output>
      ) : null}
      <section className="stack" aria-labelledby="privacy-export">
        <h2 id="privacy-export">{t('privacy.export.title')}</h2>
        <p>{t('privacy.export.intro')}</p>
        <Form method="post">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <button type="submit" name="intent" value="export" className="button button--secondary">
            {t('privacy.export.button')}
          </button>
        </Form>
      </section>
      <section className="stack" aria-labelledby="privacy-delete">
        <h2 id="privacy-delete">{t('privacy.delete.title')}</h2>
        <p>{t('privacy.delete.intro', { years })}</p>
        <Form method="post" className="stack">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          {hasPassword ? (
            <TextField
              name="password"
              type="password"
              label={t('privacy.delete.password')}
              autoComplete="current-password"
              required
              error={errors.password}
              errorParams={
                result?.retryAfterMinutes ? { minutes: result.retryAfterMinutes } : undefined
              }
            />
          ) : (
            <p>{t('account.confirm.noPassword')}</p>
          )}
          <p>
            <button type="submit" name="intent" value="delete" className="button button--primary">
              {t('privacy.delete.button')}
            </button>
          </p>
        </Form>
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'privacy.title');
