import { data, Form, redirect, useActionData, useNavigation } from 'react-router';
import { redeemCode } from '#domain/access/redeem.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { TextField } from '#web/components/text-field.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { withRedeemed } from '#web/utils/redeemed-param.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/redeem.ts';

// /redeem (spec 1 §4 Standalone redeem): 'Redeem your purchase code', Redeem / 'Wait...';
// success goes to the library link, which says which title the code unlocked (issue 38);
// logged-out visitors log in first and come back here.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  requireUser(request, context);
  return null;
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const form = await request.formData();
  const code = form.get('code');
  let productId: number;
  try {
    ({ productId } = await redeemCode(context.rc, typeof code === 'string' ? code : null));
  } catch (error) {
    if (error instanceof DomainError && error.status !== 403) {
      return data(
        { error: error.messageKey, params: error.params as Record<string, number> },
        { status: error.status },
      );
    }
    throw error;
  }
  return redirect(withRedeemed(context.rc.site.links.library, productId));
});

export default function RedeemPage() {
  const t = useT();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const csrfToken = useCsrfToken();
  return (
    <section className="narrow stack">
      <h1>{t('redeem.title')}</h1>
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <TextField
          name="code"
          label={t('redeem.standalone.field')}
          required
          maxLength={64}
          autoComplete="off"
          error={result?.error}
          errorParams={result?.params}
        />
        <button type="submit" className="button button--primary" disabled={busy || !csrfToken}>
          {busy ? t('redeem.wait') : t('redeem.submit')}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'redeem.title');
