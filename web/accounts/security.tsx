import { data, Form, redirect, useActionData, useLoaderData, useNavigation } from 'react-router';
import { z } from 'zod';
import { passkeysWorkOn } from '#domain/accounts/passkey-host.ts';
import { addPasskey, listPasskeys, removePasskey } from '#domain/accounts/passkey-service.ts';
import {
  confirmIdentity,
  confirmTotpEnrolment,
  hasPassword,
  renewRecoveryCodes,
  secondFactorStatus,
  startTotpEnrolment,
  turnOffTotp,
} from '#domain/accounts/second-factor-service.ts';
import { TableScroll } from '#web/components/table-scroll.tsx';
import { TextField } from '#web/components/text-field.tsx';
import { type FieldErrors, fieldErrors, idField } from '#web/forms/fields.ts';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { refuseWhileSwitched } from '#web/manage/helpdesk/impersonation-gate.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/security.ts';
import { PasskeyAddButton } from './passkey-add-button.tsx';
import { RecoveryCodesList } from './recovery-codes-list.tsx';
import { clearStepCookie, PASSKEY_STEP_COOKIE, relyingParty, stepToken } from './sign-in.server.ts';
import { totpQrCode } from './totp-qr.server.ts';
import { TotpSetup, type TotpSetupData } from './totp-setup.tsx';

// /account/security (issue 20): the account's passkeys (add, list, remove) and its two-step
// verification (an authenticator app, recovery codes).

const password = z.string().max(1000, 'security.error.password').default('');

const SecuritySchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('passkey-add'),
    name: z
      .string({ error: 'security.passkey.error.name' })
      .trim()
      .min(1, 'security.passkey.error.name')
      .max(64, 'security.passkey.error.nameLength'),
    response: z.string().max(20_000, 'security.passkey.error.failed').default(''),
  }),
  z.object({ intent: z.literal('passkey-remove'), passkeyId: idField, password }),
  z.object({ intent: z.literal('totp-start') }),
  z.object({ intent: z.literal('totp-confirm'), code: z.string().max(100).default('') }),
  z.object({ intent: z.literal('recovery-renew'), password }),
  z.object({ intent: z.literal('totp-off'), password }),
]);

const DONE = ['passkey-added', 'passkey-removed', 'totp-off'] as const;

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  refuseWhileSwitched(context, 'secondFactor');
  const [passkeys, status, withPassword] = await Promise.all([
    listPasskeys(context.rc, user.id),
    secondFactorStatus(context.rc, user),
    hasPassword(context.rc, user.id),
  ]);
  const url = new URL(request.url);
  const done = url.searchParams.get('done');
  return {
    csrfToken: context.csrfToken,
    // WebAuthn names a site by its host name: opened by an IP address, no passkey can be made.
    passkeysHere: passkeysWorkOn(url.hostname),
    origin: url.origin.replace(/\/\/[^:/]+/, '//localhost'),
    passkeys: passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt.toISOString(),
      lastUsedAt: p.lastUsedAt?.toISOString() ?? null,
    })),
    status,
    withPassword,
    done: DONE.find((d) => d === done) ?? null,
  };
});

type ActionResult = {
  errors?: FieldErrors;
  intent?: string;
  setup?: TotpSetupData;
  recoveryCodes?: string[];
  minutes?: number;
};

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const user = requireUser(request, context);
  const form = Object.fromEntries(await request.formData());
  refuseWhileSwitched(
    context,
    String(form.intent ?? '').startsWith('passkey') ? 'passkeys' : 'secondFactor',
  );
  const parsed = SecuritySchema.safeParse(form);
  if (!parsed.success) {
    return data<ActionResult>({ errors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const input = parsed.data;
  const refuse = (errors: FieldErrors, status = 400, extra: ActionResult = {}) =>
    data<ActionResult>({ errors, intent: input.intent, ...extra }, { status });
  const confirmed = (typed: string) =>
    confirmIdentity(context.rc, {
      userId: user.id,
      password: typed,
      sessionToken: context.sessionToken,
    });

  switch (input.intent) {
    case 'passkey-add': {
      const response = parseJson(input.response);
      if (!response) return refuse({ form: 'security.passkey.error.noResponse' });
      const added = await addPasskey(context.rc, {
        userId: user.id,
        token: stepToken(request, PASSKEY_STEP_COOKIE),
        name: input.name,
        response,
        rp: relyingParty(request, context),
      });
      if (!added.ok) {
        return refuse({
          form:
            added.reason === 'expired'
              ? 'security.passkey.error.expired'
              : 'security.passkey.error.failed',
        });
      }
      return redirect('/account/security?done=passkey-added', {
        headers: { 'Set-Cookie': clearStepCookie(context, PASSKEY_STEP_COOKIE) },
      });
    }
    case 'passkey-remove': {
      if (!(await confirmed(input.password))) {
        return refuse({ password: 'security.error.confirm' }, 403);
      }
      await removePasskey(context.rc, { userId: user.id, passkeyId: input.passkeyId });
      return redirect('/account/security?done=passkey-removed');
    }
    case 'totp-start':
      return data<ActionResult>({ intent: 'totp-confirm', setup: await setupOf() });
    case 'totp-confirm': {
      const outcome = await confirmTotpEnrolment(context.rc, { userId: user.id, code: input.code });
      if (outcome.ok) return data<ActionResult>({ recoveryCodes: outcome.recoveryCodes });
      return refuse(
        {
          code:
            outcome.reason === 'throttled'
              ? 'login.verify.error.throttled'
              : 'security.totp.error.invalid',
        },
        outcome.reason === 'throttled' ? 429 : 400,
        {
          setup: await setupOf(),
          minutes: outcome.reason === 'throttled' ? outcome.retryAfterMinutes : 0,
        },
      );
    }
    case 'recovery-renew': {
      if (!(await confirmed(input.password))) {
        return refuse({ password: 'security.error.confirm' }, 403);
      }
      return data<ActionResult>({ recoveryCodes: await renewRecoveryCodes(context.rc, user.id) });
    }
    case 'totp-off': {
      if (!(await confirmed(input.password))) {
        return refuse({ password: 'security.error.confirm' }, 403);
      }
      await turnOffTotp(context.rc, user);
      return redirect('/account/security?done=totp-off');
    }
  }

  async function setupOf(): Promise<TotpSetupData> {
    const setup = await startTotpEnrolment(context.rc, user.id);
    return {
      groupedSecret: setup.groupedSecret,
      uri: setup.uri,
      qrCode: await totpQrCode(setup.uri),
    };
  }
});

function parseJson(raw: string) {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw);
    return value && typeof value === 'object' && typeof value.id === 'string' ? value : null;
  } catch {
    return null;
  }
}

export default function SecurityPage() {
  const page = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as ActionResult | undefined;
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const busy = useNavigation().state !== 'idle';
  const when = (iso: string) =>
    new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(
      new Date(iso),
    );
  const errors = result?.errors ?? {};
  const errorsOf = (intent: string) => (result?.intent === intent ? errors : {});
  // A post no form of this page makes (an unknown intent or id): said, not ignored.
  const unknownPost = result?.errors && !result.intent && !errors.name ? 'error.invalid' : null;
  const csrf = <input type="hidden" name="csrfmiddlewaretoken" value={page.csrfToken} />;
  const passwordField = (intent: string) =>
    page.withPassword ? (
      <TextField
        name="password"
        label={t('security.currentPassword')}
        type="password"
        autoComplete="current-password"
        required
        maxLength={1000}
        error={errorsOf(intent).password}
      />
    ) : (
      <p>{t('security.freshSignIn')}</p>
    );

  return (
    <section className="narrow stack">
      <h1>{t('security.title')}</h1>
      {page.done ? (
        <output className="alert alert--success">{t(`security.done.${page.done}`)}</output>
      ) : null}
      {unknownPost ? (
        <p className="alert alert--error" role="alert">
          {t(unknownPost)}
        </p>
      ) : null}
      {result?.recoveryCodes ? <RecoveryCodesList codes={result.recoveryCodes} /> : null}

      <section className="stack" aria-labelledby="passkeys-heading">
        <h2 id="passkeys-heading">{t('security.passkey.heading')}</h2>
        <p>{t('security.passkey.intro')}</p>
        {page.passkeys.length === 0 ? (
          <p>{t('security.passkey.none')}</p>
        ) : (
          <TableScroll label={t('security.passkey.caption', { count: page.passkeys.length })}>
            <table className="analytics-table">
              <caption>{t('security.passkey.caption', { count: page.passkeys.length })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('security.passkey.name')}</th>
                  <th scope="col">{t('security.passkey.created')}</th>
                  <th scope="col">{t('security.passkey.lastUsed')}</th>
                </tr>
              </thead>
              <tbody>
                {page.passkeys.map((passkey) => (
                  <tr key={passkey.id}>
                    <td>{passkey.name}</td>
                    <td>{when(passkey.createdAt)}</td>
                    <td>
                      {passkey.lastUsedAt ? when(passkey.lastUsedAt) : t('security.passkey.never')}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
        {page.passkeysHere ? null : (
          <p className="alert alert--info">
            {t('security.passkey.needsName', { address: page.origin })}
          </p>
        )}
        <Form
          method="post"
          className="stack"
          noValidate
          aria-labelledby="passkey-add-heading"
          hidden={!page.passkeysHere}
        >
          <h3 id="passkey-add-heading">{t('security.passkey.add.heading')}</h3>
          {csrf}
          <input type="hidden" name="intent" value="passkey-add" />
          {errorsOf('passkey-add').form ? (
            <p className="alert alert--error" role="alert">
              {t(errorsOf('passkey-add').form!)}
            </p>
          ) : null}
          <TextField
            name="name"
            label={t('security.passkey.add.name')}
            required
            maxLength={64}
            autoComplete="off"
            error={errorsOf('passkey-add').name ?? (result?.intent ? undefined : errors.name)}
          />
          <PasskeyAddButton csrfToken={page.csrfToken} disabled={busy} />
        </Form>
        {page.passkeys.length > 0 ? (
          <Form method="post" className="stack" noValidate aria-labelledby="passkey-remove-heading">
            <h3 id="passkey-remove-heading">{t('security.passkey.remove.heading')}</h3>
            {csrf}
            <input type="hidden" name="intent" value="passkey-remove" />
            <div className="field">
              <label htmlFor="passkeyId">{t('security.passkey.remove.which')}</label>
              <select id="passkeyId" name="passkeyId">
                {page.passkeys.map((passkey) => (
                  <option key={passkey.id} value={passkey.id}>
                    {passkey.name}
                  </option>
                ))}
              </select>
            </div>
            {passwordField('passkey-remove')}
            <button type="submit" className="button button--secondary" disabled={busy}>
              {t('security.passkey.remove.submit')}
            </button>
          </Form>
        ) : null}
      </section>

      <section className="stack" aria-labelledby="totp-heading">
        <h2 id="totp-heading">{t('security.totp.heading')}</h2>
        <p>{t(page.status.totpOn ? 'security.totp.on' : 'security.totp.off')}</p>
        {page.status.required ? <p>{t('security.totp.requiredForRole')}</p> : null}
        {page.status.totpOn ? (
          <>
            <p>{t('security.recovery.left', { count: page.status.recoveryCodesLeft })}</p>
            <Form method="post" className="stack" noValidate aria-labelledby="totp-manage-heading">
              <h3 id="totp-manage-heading">{t('security.totp.manage.heading')}</h3>
              {csrf}
              {passwordField(result?.intent === 'totp-off' ? 'totp-off' : 'recovery-renew')}
              <button
                type="submit"
                name="intent"
                value="recovery-renew"
                className="button button--secondary"
                disabled={busy}
              >
                {t('security.recovery.renew')}
              </button>
              {page.status.mayTurnOff ? (
                <button
                  type="submit"
                  name="intent"
                  value="totp-off"
                  className="button button--secondary"
                  disabled={busy}
                >
                  {t('security.totp.turnOff')}
                </button>
              ) : null}
            </Form>
          </>
        ) : result?.setup ? (
          <Form method="post" className="stack" noValidate>
            {csrf}
            <input type="hidden" name="intent" value="totp-confirm" />
            <TotpSetup
              setup={result.setup}
              error={errorsOf('totp-confirm').code}
              errorParams={{ minutes: result.minutes ?? 0 }}
            />
            <button type="submit" className="button button--primary" disabled={busy}>
              {t('security.totp.confirm')}
            </button>
          </Form>
        ) : (
          <Form method="post">
            {csrf}
            <button
              type="submit"
              name="intent"
              value="totp-start"
              className="button button--primary"
              disabled={busy}
            >
              {t('security.totp.start')}
            </button>
          </Form>
        )}
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'security.title');
