import { Form, redirect, useLoaderData } from 'react-router';
import { switchBack } from '#domain/operations/helpdesk/impersonation-service.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useT } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { sessionCookie, signedInHeaders } from '#web/utils/session-cookie.server.ts';
import type { Route } from './+types/switch-account.ts';

// /manage/switch-account (issue 39): the menu's Switch Account item and the banner's "Switch
// back" lead here, while acting as someone; its button ends that and returns the manager to
// a session of their own, on the person's help desk page (decision 039).
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { user } = requireTool(request, context, 'switchAccount');
  return {
    name: `${user.firstName} ${user.lastName}`.trim() || user.email,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireTool(request, context, 'switchAccount');
  const back = await switchBack(context.rc, {
    sessionToken: context.sessionToken ?? '',
    userAgent: context.userAgent,
  });
  const headers = new Headers(signedInHeaders(context, back.managerId));
  headers.append('Set-Cookie', sessionCookie(context, back.token, back.expiresAt));
  throw redirect(`/manage/users/${back.userId}`, { headers });
});

export default function SwitchAccountPage() {
  const { name, csrfToken } = useLoaderData<typeof loader>();
  const t = useT();
  return (
    <section className="narrow stack">
      <h1>{t('ops.helpdesk.switch.heading')}</h1>
      <p>{t('ops.helpdesk.switch.body', { name })}</p>
      <Form method="post">
        <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
        <button type="submit" className="button button--primary">
          {t('ops.helpdesk.switch.back')}
        </button>
      </Form>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, 'ops.helpdesk.switch.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
