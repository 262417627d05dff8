import { useEffect } from 'react';
import {
  data,
  Form,
  Link,
  redirect,
  useActionData,
  useLoaderData,
  useRevalidator,
} from 'react-router';
import { z } from 'zod';
import { OUTCOMES, RECORD_KINDS } from '#domain/operations/roster/roster-counts.ts';
import { REPORT_PAGE_SIZE, ROSTER_IMPORT_TOOLS } from '#domain/operations/roster/roster-limits.ts';
import { parseId } from '#domain/shared/id.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/roster-import.ts';
import {
  applyRefusal,
  auditActorOf,
  queueApply,
  rosterImportReport,
  runQueuedRosterImports,
} from './roster.server.ts';
import { RosterStatus } from './roster-status.tsx';

// /manage/roster-imports/:importId (issue 39): one import's status with a progress bar while it
// runs, what changed (or would, after a dry run) per kind of record, each refused or ignored row
// with its file, line and reason, the report as CSV, and "Apply this import" after a dry run
// (or to finish one that stopped).
// Another campus's import is not found, as one that does not exist.

const ApplyForm = z.object({ intent: z.literal('apply') });

const POLL_MS = 1000;

async function reportInScope(request: Request, context: Route.LoaderArgs['context'], raw: string) {
  const { user, scope } = requireTool(request, context, ...ROSTER_IMPORT_TOOLS);
  const id = parseId(raw);
  if (id === null) throw data(null, { status: 404 });
  const report = await rosterImportReport(context.rc.db, scope, id);
  if (!report) throw data(null, { status: 404 });
  return { user, id, report };
}

export const loader = withDomainErrors(async ({ request, params, context }: Route.LoaderArgs) => {
  const { report } = await reportInScope(request, context, params.importId);
  const { summary, lines } = report;
  return {
    summary: {
      ...summary,
      createdAt: summary.createdAt.toISOString(),
      finishedAt: summary.finishedAt?.toISOString() ?? null,
    },
    lines,
    // After a dry run, or to finish an import that stopped (not one whose package is gone).
    canApply: applyRefusal(summary) === null,
    csrfToken: context.csrfToken,
  };
});

export const action = withDomainErrors(async ({ request, params, context }: Route.ActionArgs) => {
  const { user, id } = await reportInScope(request, context, params.importId);
  const parsed = ApplyForm.safeParse(Object.fromEntries(await request.formData()));
  if (!parsed.success) return data({ message: 'error.invalid' }, { status: 400 });
  const refusal = await queueApply(context.rc.db, id, auditActorOf(user));
  if (refusal) return data({ message: refusal }, { status: 409 });
  void runQueuedRosterImports(context.rc.db, context.bookFiles).catch((error) =>
    context.log.error({ err: error }, 'roster import stopped'),
  );
  return redirect(`/manage/roster-imports/${id}`);
});

export default function RosterImportPage() {
  const { summary, lines, canApply, csrfToken } = useLoaderData<typeof loader>();
  const refused = useActionData<{ message: string }>();
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const revalidator = useRevalidator();
  const moving = summary.status === 'queued' || summary.status === 'running';
  useEffect(() => {
    if (!moving) return;
    const timer = setInterval(() => {
      if (revalidator.state === 'idle') void revalidator.revalidate();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [moving, revalidator]);
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  const finished = summary.status === 'previewed' || summary.status === 'done';
  const total = summary.progressTotal;
  return (
    <section className="stack-lg">
      <p>
        <Link to="/manage/roster-imports">{t('ops.roster.back')}</Link>
      </p>
      <header className="stack-sm">
        <h1>{t('ops.roster.report.heading', { file: summary.fileName })}</h1>
        <p>{t('ops.roster.report.org', { org: summary.orgName })}</p>
        {summary.systemName ? (
          <p>{t('ops.roster.report.system', { system: summary.systemName })}</p>
        ) : null}
        <p>
          {summary.startedBy
            ? t('ops.roster.report.startedBy', {
                email: summary.startedBy,
                date: when.format(new Date(summary.createdAt)),
              })
            : t('ops.roster.report.started', { date: when.format(new Date(summary.createdAt)) })}
        </p>
      </header>
      <section className="stack-sm" aria-labelledby="roster-progress-label">
        <h2 id="roster-progress-label">{t('ops.roster.progress.label')}</h2>
        <p aria-live="polite">
          <RosterStatus status={summary.status} stalled={summary.stalled} />
        </p>
        {summary.status === 'refused' || summary.status === 'failed' ? null : (
          <>
            {total > 0 ? (
              <progress
                aria-labelledby="roster-progress-label"
                max={total}
                value={summary.progressDone}
              />
            ) : (
              <progress aria-labelledby="roster-progress-label" />
            )}
            <p>
              {total > 0
                ? t('ops.roster.progress.rows', { done: summary.progressDone, total })
                : t('ops.roster.progress.reading')}
            </p>
          </>
        )}
      </section>
      {summary.failure ? (
        <div className="alert alert--error" role="alert">
          {summary.status === 'refused'
            ? t('ops.roster.report.refusedBecause', {
                reason: t(summary.failure.message, summary.failure.values),
              })
            : t(summary.failure.message, summary.failure.values)}
        </div>
      ) : null}
      {summary.interruptions > 0 && summary.status !== 'failed' ? (
        <p>{t('ops.roster.resumed', { count: summary.interruptions })}</p>
      ) : null}
      {refused ? (
        <div className="alert alert--error" role="alert">
          {t(refused.message)}
        </div>
      ) : null}
      {canApply ? (
        <Form method="post">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          <input type="hidden" name="intent" value="apply" />
          <button type="submit" className="button button--primary">
            {t('ops.roster.apply')}
          </button>
        </Form>
      ) : null}
      {finished ? (
        <section className="stack" aria-labelledby="roster-counts">
          <h2 id="roster-counts">
            {t(
              summary.status === 'previewed'
                ? 'ops.roster.counts.headingDryRun'
                : 'ops.roster.counts.heading',
            )}
          </h2>
          <section
            className="table-scroll"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on a phone; the keyboard scrolls it from here (WCAG 2.1.1)
            tabIndex={0}
            aria-labelledby="roster-counts"
          >
            <table className="data-table">
              <thead>
                <tr>
                  <th scope="col">{t('ops.roster.counts.kind')}</th>
                  {OUTCOMES.map((o) => (
                    <th scope="col" key={o}>
                      {t(`ops.roster.outcome.${o}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {RECORD_KINDS.map((kind) => (
                  <tr key={kind}>
                    <th scope="row">{t(`ops.roster.kind.${kind}`)}</th>
                    {OUTCOMES.map((o) => (
                      <td key={o}>
                        {new Intl.NumberFormat(locale).format(summary.counts[kind][o])}
                      </td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        </section>
      ) : null}
      {finished ? (
        <section className="stack" aria-labelledby="roster-lines">
          <h2 id="roster-lines">{t('ops.roster.lines.heading')}</h2>
          <p>
            <a href={`/manage/roster-imports/${summary.id}/report.csv`} download>
              {t('ops.roster.report.download')}
            </a>
          </p>
          {lines.length === 0 ? (
            <p>{t('ops.roster.lines.none')}</p>
          ) : (
            <section
              className="table-scroll"
              // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on a phone; the keyboard scrolls it from here (WCAG 2.1.1)
              tabIndex={0}
              aria-labelledby="roster-lines"
            >
              <table className="data-table">
                <thead>
                  <tr>
                    <th scope="col">{t('ops.roster.lines.file')}</th>
                    <th scope="col">{t('ops.roster.lines.line')}</th>
                    <th scope="col">{t('ops.roster.lines.sourcedId')}</th>
                    <th scope="col">{t('ops.roster.lines.kind')}</th>
                    <th scope="col">{t('ops.roster.lines.reason')}</th>
                  </tr>
                </thead>
                <tbody>
                  {lines.map((l) => (
                    <tr key={`${l.file}:${l.line}:${l.sourcedId}`}>
                      <td>{l.file}</td>
                      {/* Line 0: the file as a whole (a bulk file's ends). */}
                      <td>{l.line > 0 ? l.line : '—'}</td>
                      <td>{l.sourcedId}</td>
                      <td>{t(`ops.roster.lineKind.${l.kind}`)}</td>
                      <td>{t(l.reason.message, l.reason.values)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          )}
          {summary.lineCount > lines.length ? (
            <p>{t('ops.roster.lines.more', { count: REPORT_PAGE_SIZE })}</p>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}

export const meta: Route.MetaFunction = ({ data: loaderData, matches }) =>
  loaderData ? pageMeta(matches, 'ops.roster.report.pageTitle', { id: loaderData.summary.id }) : [];

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
