import { data, Form, Link, redirect, useActionData, useLoaderData } from 'react-router';
import { z } from 'zod';
import {
  ROSTER_IMPORT_TOOLS,
  ROSTER_UPLOAD_LIMIT_BYTES,
} from '#domain/operations/roster/roster-limits.ts';
import { GeneralErrorBoundary } from '#web/components/general-error-boundary.tsx';
import { useLocale, useT, useTimeZone } from '#web/i18n/use-t.ts';
import { uploadedFiles } from '#web/manage/catalog-upload.server.ts';
import { requireTool } from '#web/manage/require-tool.server.ts';
import { withDomainErrors } from '#web/utils/domain-errors.server.ts';
import { pageMeta } from '#web/utils/meta.ts';
import type { Route } from './+types/roster-imports.ts';
import {
  auditActorOf,
  rosterImportList,
  rosterOrganisations,
  runQueuedRosterImports,
  startUploadedRosterImport,
} from './roster.server.ts';
import { RosterStatus } from './roster-status.tsx';

// /manage/roster-imports (issue 39): a campus's OneRoster 1.2 CSV package in, as a dry run
// first by default, and the imports so far. The upload is streamed to disk by the edge within
// its limit (server/edge.ts); the import runs in the background and its page follows it.

const UploadForm = z.object({
  org: z.coerce.number().int().positive().max(2_147_483_647).optional(),
  dryRun: z.literal('on').optional(),
});

type ActionResult = {
  field: 'package' | 'org';
  message: string;
  org: number | null;
  dryRun: boolean;
};

export const loader = withDomainErrors(async ({ request, context }: Route.LoaderArgs) => {
  const { user, scope } = requireTool(request, context, ...ROSTER_IMPORT_TOOLS);
  const [imports, orgs] = await Promise.all([
    rosterImportList(context.rc.db, scope),
    rosterOrganisations(context.rc.db, scope),
  ]);
  return {
    imports: imports.map((i) => ({
      ...i,
      createdAt: i.createdAt.toISOString(),
      finishedAt: i.finishedAt?.toISOString() ?? null,
    })),
    orgs,
    ownOrg: user.orgId,
    csrfToken: context.csrfToken,
    maxMegabytes: Math.floor(ROSTER_UPLOAD_LIMIT_BYTES / (1024 * 1024)),
  };
});

export const action = withDomainErrors(async ({ request, context }: Route.ActionArgs) => {
  const { user, scope } = requireTool(request, context, ...ROSTER_IMPORT_TOOLS);
  const form = await request.formData();
  const parsed = UploadForm.safeParse({
    org: form.get('org') || undefined,
    dryRun: form.get('dryRun') || undefined,
  });
  const dryRun = form.get('dryRun') === 'on';
  if (!parsed.success) {
    return data<ActionResult>(
      { field: 'org', message: 'ops.roster.error.org', org: null, dryRun },
      { status: 400 },
    );
  }
  // Someone of one organisation imports for it; a manager chooses.
  const orgId = scope.kind === 'all' ? (parsed.data.org ?? null) : (parsed.data.org ?? user.orgId);
  const files = uploadedFiles(context, form).filter((f) => f.field === 'package');
  const outcome = await startUploadedRosterImport(context.rc.db, context.bookFiles, {
    files: files.map((f) => ({ fileName: f.fileName, path: f.path, bytes: f.bytes })),
    orgId,
    scope,
    dryRun,
    userId: user.id,
    actor: auditActorOf(user),
  });
  if (!outcome.ok) {
    return data<ActionResult>(
      { field: outcome.field, message: outcome.message, org: orgId, dryRun },
      { status: 400 },
    );
  }
  // The import runs after this answer, in this process; any process may take a queued one.
  void runQueuedRosterImports(context.rc.db, context.bookFiles).catch((error) =>
    context.log.error({ err: error }, 'roster import stopped'),
  );
  return redirect(`/manage/roster-imports/${outcome.id}`);
});

export default function RosterImportsPage() {
  const { imports, orgs, ownOrg, csrfToken, maxMegabytes } = useLoaderData<typeof loader>();
  const result = useActionData<ActionResult>();
  const t = useT();
  const locale = useLocale();
  const timeZone = useTimeZone();
  const when = new Intl.DateTimeFormat(locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone,
  });
  const chooseOrg = orgs.length > 1;
  const packageError = result?.field === 'package' ? result.message : null;
  const orgError = result?.field === 'org' ? result.message : null;
  return (
    <section className="stack-lg">
      <header className="stack-sm">
        <h1>{t('ops.roster.heading')}</h1>
        <p>{t('ops.roster.intro')}</p>
      </header>
      <section className="stack" aria-labelledby="roster-upload">
        <h2 id="roster-upload">{t('ops.roster.upload.heading')}</h2>
        <Form method="post" encType="multipart/form-data" reloadDocument className="stack narrow">
          <input type="hidden" name="csrfmiddlewaretoken" value={csrfToken} />
          {chooseOrg ? (
            <div className="field">
              <label htmlFor="roster-org">{t('ops.roster.upload.org')}</label>
              <select
                id="roster-org"
                name="org"
                required
                defaultValue={result?.org ?? ownOrg ?? ''}
                aria-invalid={orgError ? true : undefined}
                aria-describedby={orgError ? 'roster-org-error' : undefined}
              >
                <option value="">—</option>
                {orgs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.title}
                  </option>
                ))}
              </select>
              {orgError ? (
                <p id="roster-org-error" className="field__error">
                  {t(orgError)}
                </p>
              ) : null}
            </div>
          ) : (
            <>
              <p>{t('ops.roster.report.org', { org: orgs[0]?.title ?? '' })}</p>
              {orgError ? (
                <p className="alert alert--error" role="alert">
                  {t(orgError)}
                </p>
              ) : null}
            </>
          )}
          <div className="field">
            <label htmlFor="roster-package">{t('ops.roster.upload.file')}</label>
            <p id="roster-package-hint" className="field__hint">
              {t('ops.roster.upload.hint', { max: maxMegabytes })}
            </p>
            <input
              id="roster-package"
              name="package"
              type="file"
              multiple
              required
              accept=".zip,.csv,application/zip,text/csv"
              aria-invalid={packageError ? true : undefined}
              aria-describedby={
                packageError ? 'roster-package-hint roster-package-error' : 'roster-package-hint'
              }
            />
            {packageError ? (
              <p id="roster-package-error" className="field__error">
                {t(packageError)}
              </p>
            ) : null}
          </div>
          <div className="field field--checkbox">
            <input
              id="roster-dry-run"
              name="dryRun"
              type="checkbox"
              defaultChecked={result ? result.dryRun : true}
            />
            <label htmlFor="roster-dry-run">{t('ops.roster.upload.dryRun')}</label>
          </div>
          <p>
            <button type="submit" className="button button--primary">
              {t('ops.roster.upload.submit')}
            </button>
          </p>
        </Form>
      </section>
      <section className="stack" aria-labelledby="roster-list">
        <h2 id="roster-list">{t('ops.roster.list.heading')}</h2>
        {imports.length === 0 ? (
          <p>{t('ops.roster.list.none')}</p>
        ) : (
          <section
            className="table-scroll"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the table scrolls sideways on a phone; the keyboard scrolls it from here (WCAG 2.1.1)
            tabIndex={0}
            aria-labelledby="roster-list"
          >
            <table className="data-table">
              <caption className="visually-hidden">{t('ops.roster.list.heading')}</caption>
              <thead>
                <tr>
                  <th scope="col">{t('ops.roster.list.file')}</th>
                  <th scope="col">{t('ops.roster.list.org')}</th>
                  <th scope="col">{t('ops.roster.list.started')}</th>
                  <th scope="col">{t('ops.roster.list.status')}</th>
                  <th scope="col">{t('ops.roster.list.changes')}</th>
                </tr>
              </thead>
              <tbody>
                {imports.map((i) => {
                  const sum = (outcome: 'created' | 'updated' | 'ended' | 'refused') =>
                    Object.values(i.counts).reduce((n, c) => n + (c[outcome] ?? 0), 0);
                  return (
                    <tr key={i.id}>
                      <th scope="row">
                        <Link to={`/manage/roster-imports/${i.id}`}>{i.fileName}</Link>
                      </th>
                      <td>{i.orgName}</td>
                      <td>{when.format(new Date(i.createdAt))}</td>
                      <td>
                        <RosterStatus status={i.status} stalled={i.stalled} />
                      </td>
                      <td>
                        {t('ops.roster.list.changeCount', {
                          created: sum('created'),
                          updated: sum('updated'),
                          ended: sum('ended'),
                          refused: sum('refused'),
                        })}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        )}
      </section>
    </section>
  );
}

export const meta: Route.MetaFunction = ({ matches }) => pageMeta(matches, 'ops.roster.pageTitle');

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
