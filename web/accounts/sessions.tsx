import { data, Form, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import {
  deviceSessions,
  endDeviceSession,
  endOtherSessions,
} from '#domain/accounts/device-sessions.ts';
import { useLocale, useT } from '#web/i18n/use-t.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import { requireUser } from '#web/utils/require-user.server.ts';
import type { Route } from './+types/sessions.ts';

const SessionsSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('one'), key: z.string().min(1).max(100) }),
  z.object({ intent: z.literal('others') }),
]);

// Issue 20, My Account › Signed-in devices: each live session's browser and system, when it
// signed in and was last seen (in the account's time zone), this device first; the others
// can be signed out one by one or all together.
export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const user = requireUser(request, context);
  const sessions = await deviceSessions(context.rc, context.sessionToken);
  return {
    timeZone: user.timeZone,
    sessions: sessions.map((s) => ({
      ...s,
      signedInAt: s.signedInAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    })),
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  requireUser(request, context);
  const parsed = SessionsSchema.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ notice: null, error: 'error.invalid' }, { status: 400 });
  if (parsed.data.intent === 'one') {
    await endDeviceSession(context.rc, context.sessionToken, parsed.data.key);
    return { notice: 'sessions.ended', error: null };
  }
  await endOtherSessions(context.rc, context.sessionToken);
  return { notice: 'sessions.endedAll', error: null };
});

export default function SessionsPage() {
  const { sessions, timeZone, csrfToken } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const t = useT();
  const locale = useLocale();
  const when = new Intl.DateTimeFormat(locale, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZoneName: 'short',
    timeZone,
  });
  const others = sessions.filter((s) => !s.current);
  return (
    <section className="narrow stack">
      <h1>{t('sessions.title')}</h1>
      <p>{t('sessions.intro')}</p>
      {result?.notice ? <output className="alert alert--success">{t(result.notice)}</output> : null}
      {result?.error ? (
        <p className="alert alert--error" role="alert">
          {t(result.error)}
        </p>
      ) : null}
      <ul className="stack" aria-label={t('sessions.title')}>
        {sessions.map((s) => {
          const device = t('sessions.device', {
            browser: s.browser ?? t('sessions.unknownBrowser'),
            system: s.system ?? t('sessions.unknownSystem'),
          });
          const signedIn = when.format(new Date(s.signedInAt));
          return (
            <li key={s.key} className="card stack-sm">
              <p>
                <strong>{device}</strong>
                {s.current ? <> — {t('sessions.thisDevice')}</> : null}
              </p>
              <p>{t('sessions.signedIn', { date: signedIn })}</p>
              <p>{t('sessions.lastSeen', { date: when.format(new Date(s.lastSeenAt)) })}</p>
              {s.current ? null : (
                <Form method="post">
                  <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
                  <input type="hidden" name="intent" value="one" />
                  <input type="hidden" name="key" value={s.key} />
                  <button
                    type="submit"
                    className="button button--secondary"
                    aria-label={t('sessions.signOutLabel', { device, date: signedIn })}
                  >
                    {t('sessions.signOut')}
                  </button>
                </Form>
              )}
            </li>
          );
        })}
      </ul>
      {others.length > 0 ? (
        <Form method="post">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <input type="hidden" name="intent" value="others" />
          <button type="submit" className="button button--primary">
            {t('sessions.signOutOthers')}
          </button>
        </Form>
      ) : (
        <p>{t('sessions.none')}</p>
      )}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'sessions.title');
