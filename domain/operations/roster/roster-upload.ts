import { mkdtemp, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { asc, inArray } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { organizations } from '#db/schema/sites.ts';
import type { AuditActor } from '#domain/operations/audit.ts';
import { inOrgScope, type OrgScope } from '#domain/operations/staff-scope.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import { csvLine } from '#domain/shared/csv.ts';
import { reportLines, startRosterImport } from './roster-jobs.ts';

// Issue 39: what the roster import page hands the domain: the uploaded files (already streamed
// to disk by the edge, within its limit) and the organisation it is for.

export type UploadedPackageFile = { fileName: string; path: string; bytes: number };

export type UploadOutcome =
  | { ok: true; id: number }
  | { ok: false; field: 'package' | 'org'; message: string };

/** The organisations a staff member may import for, by name. */
export async function rosterOrganisations(db: Queryable, scope: OrgScope) {
  const query = db
    .select({ id: organizations.id, title: organizations.title })
    .from(organizations)
    .orderBy(asc(organizations.title), asc(organizations.id));
  if (scope.kind === 'all') return query;
  return query.where(inArray(organizations.id, scope.orgIds.length > 0 ? [...scope.orgIds] : [-1]));
}

/**
 * Queues the import of an uploaded package: one .zip, or the package's CSV files (manifest.csv
 * among them). An organisation outside the person's scope is refused like one that does not
 * exist.
 */
export async function startUploadedRosterImport(
  db: Queryable,
  store: BookFileStore,
  input: {
    files: UploadedPackageFile[];
    orgId: number | null;
    scope: OrgScope;
    dryRun: boolean;
    userId: number;
    actor: AuditActor;
  },
): Promise<UploadOutcome> {
  const orgs = await rosterOrganisations(db, input.scope);
  if (
    input.orgId === null ||
    !orgs.some((o) => o.id === input.orgId) ||
    !inOrgScope(input.scope, input.orgId)
  ) {
    return { ok: false, field: 'org', message: 'ops.roster.error.org' };
  }
  const files = input.files.filter((f) => f.bytes > 0);
  if (files.length === 0)
    return { ok: false, field: 'package', message: 'ops.roster.error.noFile' };
  const base = (f: UploadedPackageFile) => path.basename(f.fileName.replaceAll('\\', '/'));
  const zips = files.filter((f) => /\.zip$/i.test(f.fileName));
  const csvs = files.filter((f) => /\.csv$/i.test(f.fileName));
  const common = {
    orgId: input.orgId,
    dryRun: input.dryRun,
    source: 'page' as const,
    startedBy: input.userId,
    actor: input.actor,
  };
  if (zips.length === 1 && files.length === 1) {
    const id = await startRosterImport(db, store, {
      ...common,
      fileName: base(zips[0]!),
      localPath: zips[0]!.path,
      bytes: zips[0]!.bytes,
    });
    return { ok: true, id };
  }
  if (csvs.length !== files.length || !csvs.some((f) => base(f) === 'manifest.csv')) {
    return { ok: false, field: 'package', message: 'ops.roster.error.notPackage' };
  }
  const folder = await mkdtemp(path.join(path.dirname(csvs[0]!.path), 'roster-'));
  try {
    for (const f of csvs) await rename(f.path, path.join(folder, base(f)));
    const bytes = csvs.reduce((sum, f) => sum + f.bytes, 0);
    const id = await startRosterImport(db, store, {
      ...common,
      fileName: 'manifest.csv',
      localPath: folder,
      bytes,
    });
    return { ok: true, id };
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

/** The report as CSV (file, line, sourcedId, outcome, reason), in the reader's language. */
export async function rosterReportCsv(
  db: Queryable,
  id: number,
  words: {
    header: string[];
    kind: (kind: string) => string;
    reason: (key: string, values?: Record<string, string | number>) => string;
  },
): Promise<string> {
  const lines = await reportLines(db, id);
  return [
    csvLine(words.header),
    ...lines.map((l) =>
      csvLine([
        l.file,
        String(l.line),
        l.sourcedId ?? '',
        words.kind(l.kind),
        words.reason(l.reason.message, l.reason.values),
      ]),
    ),
  ].join('');
}
