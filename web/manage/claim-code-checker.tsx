import { data, Form, Link, useActionData, useLoaderData, useNavigation } from 'react-router';
import { type ClaimCodeCheck, checkClaimCode } from '#domain/access/claim-code-check.ts';
import { MAX_CODE_LENGTH } from '#domain/access/code-entry.ts';
import { productPath } from '#domain/catalog/product-route.ts';
import { DomainError } from '#domain/shared/errors.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { useCsrfToken } from '#web/utils/csrf-token.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/claim-code-checker.ts';

// /manage/claim-code-checker (spec 1 §2 user menu, "Claim Code Checker (users with access)"):
// a clerk or an agent types the code a student brings and sees what it gives and whether it can
// still be redeemed, without redeeming it. A form post, not a search link: a live code is a
// secret, and a URL with it would sit in the browser's history and the access logs.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { user } = requireTool(request, context, 'claimCodeChecker');
  return { timeZone: user.timeZone };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireTool(request, context, 'claimCodeChecker');
  const form = await request.formData();
  const code = form.get('code');
  try {
    const check = await checkClaimCode(context.rc, typeof code === 'string' ? code : null);
    return { check, error: null, params: null };
  } catch (error) {
    if (error instanceof DomainError && error.status !== 403) {
      return data(
        { check: null, error: error.messageKey, params: error.params as Record<string, number> },
        { status: error.status },
      );
    }
    throw error;
  }
});

export default function ClaimCodeCheckerPage() {
  const { timeZone } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  const csrfToken = useCsrfToken();
  const t = useT();
  const check = result?.check ?? null;
  // A code not found is said beside the field, in the redeem form's own words.
  const fieldError = result?.error ?? (check && !check.found ? check.messageKey : undefined);
  return (
    <section className="narrow stack-lg">
      <h1>{t('menu.claimCodeChecker')}</h1>
      <p>{t('claimCheck.intro')}</p>
      <Form method="post" className="stack" noValidate>
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken ?? ''} />
        <TextField
          name="code"
          label={t('claimCheck.field')}
          required
          maxLength={MAX_CODE_LENGTH}
          autoComplete="off"
          spellCheck={false}
          error={fieldError}
          errorParams={result?.params ?? undefined}
          announceError
        />
        <button type="submit" className="button button--primary" disabled={busy || !csrfToken}>
          {busy ? t('claimCheck.wait') : t('claimCheck.submit')}
        </button>
      </Form>
      {/* Always there, so that a screen reader reads the first result out as it arrives. */}
      <div aria-live="polite">
        {check?.found ? <CheckResult check={check} timeZone={timeZone} /> : null}
      </div>
    </section>
  );
}

type Found = Extract<ClaimCodeCheck, { found: true }>;

/** Dates arrive from the action as dates or, after a reload of its data, as strings. */
type Wire<T> = {
  [K in keyof T]: T[K] extends Date | null ? string | Date | null : T[K];
};

function CheckResult({ check, timeZone }: { check: Wire<Found>; timeZone: string }) {
  const t = useT();
  const locale = useLocale();
  const day = new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone });
  const when = (value: string | Date) => (
    <time dateTime={new Date(value).toISOString()}>{day.format(new Date(value))}</time>
  );
  const standing = (() => {
    switch (check.standing) {
      case 'redeemed':
        return check.redeemedAt
          ? t('claimCheck.standing.redeemed', {
              date: day.format(new Date(check.redeemedAt)),
              email: check.redeemedBy ?? '—',
            })
          : t('claimCheck.standing.redeemedUndated');
      case 'expired':
        return t('claimCheck.standing.expired', {
          date: day.format(new Date(check.expiresAt ?? 0)),
        });
      case 'unused':
        return t('claimCheck.standing.unused');
    }
  })();
  return (
    <section className="stack" aria-labelledby="claim-check-result">
      <h2 id="claim-check-result">{t('claimCheck.result.heading', { code: check.code })}</h2>
      {check.hint ? <p>{t(`claimCheck.readAs.${check.hint}`, { code: check.code })}</p> : null}
      <p className={`alert ${check.standing === 'unused' ? 'alert--success' : 'alert--info'}`}>
        {standing}
      </p>
      <dl className="helpdesk-facts">
        <dt>{t('claimCheck.result.product')}</dt>
        <dd>
          <Link to={productPath(check.product)}>{check.product.title}</Link>
        </dd>
        <dt>{t('claimCheck.result.access')}</dt>
        <dd>
          {check.durationDays
            ? t('claimCheck.result.days', { days: check.durationDays })
            : t('claimCheck.result.noLimit')}
        </dd>
        {/* Only a code that can still be redeemed has a last day to be (the standing above
            says when an expired one ended). */}
        {check.standing === 'unused' ? (
          <>
            <dt>{t('claimCheck.result.until')}</dt>
            <dd>{check.expiresAt ? when(check.expiresAt) : t('claimCheck.result.noEnd')}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'claimCheck.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
