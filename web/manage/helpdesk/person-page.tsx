import { useEffect, useRef } from 'react';
import { data, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import {
  changeRole,
  type HelpdeskOutcome,
  lockAccount,
  sendAccountMail,
  unlockAccount,
} from '#domain/operations/helpdesk/account-actions.ts';
import { startSwitch } from '#domain/operations/helpdesk/impersonation-service.ts';
import { GRANTABLE_ROLES } from '#domain/operations/helpdesk/people-scope.ts';
import { personView } from '#domain/operations/helpdesk/person-view.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { AuditTrail } from '#web/manage/audit-trail.tsx';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { sessionCookie, signedInHeaders } from '#web/utils/session-cookie.server.ts';
import type { Route } from './+types/person-page.ts';
import { PersonActions } from './person-actions.tsx';
import { PersonTables } from './person-tables.tsx';

const role = z.enum(GRANTABLE_ROLES, { error: 'ops.helpdesk.error.role' });
const confirmed = z.literal('yes').optional();

// Several buttons, one form each, a literal intent each (STYLE.md). Lock and revoke ask again
// before they happen: the first post answers with a confirmation, the second carries 'yes'.
const PersonForm = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('lock'), confirm: confirmed }),
  z.object({ intent: z.literal('unlock') }),
  z.object({ intent: z.literal('verify') }),
  z.object({ intent: z.literal('reset') }),
  z.object({ intent: z.literal('grant'), role }),
  z.object({ intent: z.literal('revoke'), role, confirm: confirmed }),
  z.object({ intent: z.literal('switch') }),
]);

export type PersonActionResult =
  | HelpdeskOutcome
  | { ok: 'confirm'; intent: 'lock' | 'revoke'; role?: string };

function userIdOf(raw: string): number {
  const id = parseId(raw);
  if (id === null) throw data({ messageKey: 'ops.helpdesk.error.notFound' }, { status: 404 });
  return id;
}

// /manage/users/{id} (issue 39): the person page of the help desk, in the staff member's scope.
export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { user } = requireTool(request, context, 'users', 'myUsers');
  const view = await personView(context.rc, userIdOf(params.userId));
  return { ...view, timeZone: user.timeZone, csrfToken: context.csrfToken };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  requireTool(request, context, 'users', 'myUsers');
  const userId = userIdOf(params.userId);
  const parsed = PersonForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]?.message ?? '';
    return data<PersonActionResult>(
      { ok: false, messageKey: issue.startsWith('ops.helpdesk.') ? issue : 'error.invalid' },
      { status: 400 },
    );
  }
  const input = parsed.data;
  const rc = context.rc;
  switch (input.intent) {
    case 'lock':
      if (!input.confirm) return data<PersonActionResult>({ ok: 'confirm', intent: 'lock' });
      return data<PersonActionResult>(await lockAccount(rc, userId));
    case 'unlock':
      return data<PersonActionResult>(await unlockAccount(rc, userId));
    case 'verify':
    case 'reset': {
      const outcome = await sendAccountMail(rc, userId, input.intent);
      // Too many mails: 429; an address already proved needs no link: 409 (nothing to retry).
      const refused = outcome.messageKey === 'ops.helpdesk.error.throttled' ? 429 : 409;
      return data<PersonActionResult>(outcome, { status: outcome.ok ? 200 : refused });
    }
    case 'grant':
    case 'revoke': {
      if (input.intent === 'revoke' && !input.confirm) {
        return data<PersonActionResult>({ ok: 'confirm', intent: 'revoke', role: input.role });
      }
      const outcome = await changeRole(rc, userId, {
        role: input.role,
        grant: input.intent === 'grant',
      });
      return data<PersonActionResult>(outcome, { status: outcome.ok ? 200 : 409 });
    }
    case 'switch': {
      const session = await startSwitch(rc, {
        userId,
        sessionToken: context.sessionToken ?? '',
        userAgent: context.userAgent,
      });
      // The person's own shelf, as they see it (decision 039).
      const headers = new Headers(signedInHeaders(context, userId));
      headers.append('Set-Cookie', sessionCookie(context, session.token, session.expiresAt));
      throw redirect('/shelf', { headers });
    }
  }
});

export default function PersonPage() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<PersonActionResult>();
  const t = useT();
  const notice = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (result) notice.current?.focus();
  }, [result]);
  const { person } = view;
  const name = `${person.firstName} ${person.lastName}`.trim() || person.email;
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{name}</h1>
        <dl className="helpdesk-facts">
          <dt>{t('ops.helpdesk.person.email')}</dt>
          <dd>
            {person.email}{' '}
            {person.emailVerified
              ? t('ops.helpdesk.person.verified')
              : t('ops.helpdesk.person.unverified')}
          </dd>
          <dt>{t('ops.helpdesk.person.organisation')}</dt>
          <dd>{person.orgName ?? '—'}</dd>
          <dt>{t('ops.helpdesk.person.state')}</dt>
          <dd>
            {person.isActive ? t('ops.helpdesk.person.active') : t('ops.helpdesk.person.locked')}
          </dd>
          <dt>{t('ops.helpdesk.person.roles')}</dt>
          <dd>
            {person.roles.length === 0
              ? t('ops.helpdesk.person.noRoles')
              : person.roles.map((r) => t(`ops.helpdesk.role.${r}`)).join(', ')}
          </dd>
          <dt>{t('ops.helpdesk.person.campusIds')}</dt>
          <dd>
            {view.campusIds.length === 0
              ? '—'
              : view.campusIds
                  .map((c) => t(`ops.helpdesk.campusId.${c.source}`, { id: c.campusId }))
                  .join(', ')}
          </dd>
        </dl>
      </header>
      <div ref={notice} tabIndex={-1}>
        {result && result.ok === true ? (
          <output className="alert alert--success">{t(result.messageKey)}</output>
        ) : null}
        {result && result.ok === false ? (
          <div className="alert alert--error" role="alert">
            <p>{t(result.messageKey, result.params)}</p>
          </div>
        ) : null}
      </div>
      <PersonActions
        view={view}
        name={name}
        csrfToken={view.csrfToken}
        confirm={result && result.ok === 'confirm' ? result : null}
      />
      <PersonTables view={view} timeZone={view.timeZone} />
      <AuditTrail
        lines={view.audit.map((line) => ({ ...line, occurredAt: new Date(line.occurredAt) }))}
        timeZone={view.timeZone}
        actingAsNames={view.actingAsNames}
      />
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData
    ? pageMeta(matches, 'ops.helpdesk.person.pageTitle', {
        name:
          `${loaderData.person.firstName} ${loaderData.person.lastName}`.trim() ||
          loaderData.person.email,
      })
    : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
