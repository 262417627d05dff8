import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { and, count, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import { rosterImportLines, rosterImports } from '#db/schema/roster.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';
import type { AuditActor } from '#domain/operations/audit.ts';
import type { OrgScope } from '#domain/operations/staff-scope.ts';
import type { BookFileStore } from '#domain/reading/file-store.ts';
import type { MessageWording } from '#domain/shared/wording.ts';
import { ROSTER_FILES } from './oneroster-tables.ts';
import { readRosterPackage } from './package-reader.ts';

/** The files of a package this import reads. */
const PACKAGE_FILES: readonly string[] = ['manifest.csv', ...ROSTER_FILES.map((f) => `${f}.csv`)];

import { applyRosterPackage, emptyCounts } from './roster-apply.ts';
import type { RosterCounts } from './roster-counts.ts';
import { REPORT_PAGE_SIZE } from './roster-limits.ts';

// Issue 39: a roster import is a job row (DESIGN, staff tools): started by the page or the CLI,
// taken by whichever process claims it (FOR UPDATE SKIP LOCKED), its progress and report read
// back by the page. A dry run ends 'previewed'; applying it queues the same package again.

export type RosterImportStatus = 'queued' | 'running' | 'previewed' | 'done' | 'refused' | 'failed';

/** The moves of an import's lifecycle. */
const MOVES: Record<RosterImportStatus, readonly RosterImportStatus[]> = {
  queued: ['running'],
  running: ['previewed', 'done', 'refused', 'failed'],
  previewed: ['queued'],
  done: [],
  refused: [],
  failed: ['queued'],
};

/** Whether an import may be applied now; the reason as a message key when not. */
export function applyRefusal(status: RosterImportStatus): string | null {
  return MOVES[status].includes('queued') ? null : 'ops.roster.error.notApplicable';
}

export type StartInput = {
  orgId: number;
  dryRun: boolean;
  source: 'page' | 'cli';
  fileName: string;
  /** The package on this machine: a .zip file or a folder; the store keeps it under the id. */
  localPath: string;
  bytes: number;
  startedBy: number | null;
  actor: AuditActor;
};

/** Queues an import of a package the caller has on disk; returns its id. */
export async function startRosterImport(
  db: Queryable,
  store: BookFileStore,
  input: StartInput,
): Promise<number> {
  const [row] = await db
    .insert(rosterImports)
    .values({
      orgId: input.orgId,
      dryRun: input.dryRun,
      source: input.source,
      fileName: input.fileName.slice(0, 300),
      storagePath: '',
      bytes: input.bytes,
      startedBy: input.startedBy,
      actor: input.actor,
    })
    .returning({ id: rosterImports.id });
  const id = row!.id;
  // A zip is kept as it came; the files of a package sent one by one, in a folder of their own.
  let storagePath = `roster-imports/${id}.zip`;
  if ((await stat(input.localPath)).isDirectory()) {
    storagePath = `roster-imports/${id}/`;
    for (const name of await readdir(input.localPath)) {
      if (PACKAGE_FILES.includes(name)) {
        await store.adopt(`${storagePath}${name}`, path.join(input.localPath, name));
      }
    }
  } else {
    await store.adopt(storagePath, input.localPath);
  }
  await db.update(rosterImports).set({ storagePath }).where(eq(rosterImports.id, id));
  return id;
}

/** Queues a previewed import to be written; null when done, or the reason it cannot be. */
export async function queueApply(
  db: Queryable,
  id: number,
  actor: AuditActor,
): Promise<string | null> {
  const [row] = await db
    .select({ status: rosterImports.status })
    .from(rosterImports)
    .where(eq(rosterImports.id, id));
  if (!row) return 'ops.roster.error.notApplicable';
  const refusal = applyRefusal(row.status as RosterImportStatus);
  if (refusal) return refusal;
  const moved = await db
    .update(rosterImports)
    .set({
      status: 'queued',
      dryRun: false,
      actor,
      progressDone: 0,
      progressTotal: 0,
      updatedAt: new Date(),
    })
    .where(and(eq(rosterImports.id, id), eq(rosterImports.status, row.status)))
    .returning({ id: rosterImports.id });
  return moved.length === 1 ? null : 'ops.roster.error.notApplicable';
}

/** Takes the oldest queued import, if any, for this process. */
export async function claimRosterImport(db: Queryable): Promise<number | null> {
  const rows = rowsOf<{ id: number }>(
    await db.execute(sql`update roster_imports set status = 'running', updated_at = now()
      where id = (select id from roster_imports where status = 'queued' order by id
        for update skip locked limit 1)
      returning id`),
  );
  return rows[0]?.id ?? null;
}

/** Claims one queued import by its id (the CLI runs the one it started); false if taken. */
export async function claimRosterImportById(db: Queryable, id: number): Promise<boolean> {
  const rows = await db
    .update(rosterImports)
    .set({ status: 'running', updatedAt: new Date() })
    .where(and(eq(rosterImports.id, id), eq(rosterImports.status, 'queued')))
    .returning({ id: rosterImports.id });
  return rows.length === 1;
}

/** Runs queued imports until none is left (the page's action and the CLI start this). */
export async function runQueuedRosterImports(
  db: Queryable,
  store: BookFileStore,
  options: { now?: () => Date } = {},
): Promise<number[]> {
  const ran: number[] = [];
  for (;;) {
    const id = await claimRosterImport(db);
    if (id === null) return ran;
    await runRosterImport(db, store, id, options.now?.() ?? new Date());
    ran.push(id);
  }
}

/** Runs one claimed import to its end; a crash marks it failed, to be run again. */
export async function runRosterImport(
  db: Queryable,
  store: BookFileStore,
  id: number,
  now: Date,
  onProgress?: (done: number, total: number) => void,
) {
  const [job] = await db.select().from(rosterImports).where(eq(rosterImports.id, id));
  if (!job) return;
  const work = await mkdtemp(path.join(tmpdir(), 'roster-'));
  try {
    const folder = job.storagePath.endsWith('/');
    const local = folder ? work : path.join(work, 'package.zip');
    const copy = (from: string, to: string) =>
      pipeline(
        Readable.fromWeb(store.stream(from) as unknown as NodeReadableStream<Uint8Array>),
        createWriteStream(to),
      );
    if (folder) {
      for (const name of PACKAGE_FILES) {
        const from = `${job.storagePath}${name}`;
        if ((await store.size(from).catch(() => null)) !== null)
          await copy(from, path.join(work, name));
      }
    } else {
      await copy(job.storagePath, local);
    }
    const reading = await readRosterPackage(local);
    await db.delete(rosterImportLines).where(eq(rosterImportLines.importId, id));
    if (!reading.ok) {
      await db
        .update(rosterImports)
        .set({
          status: 'refused',
          failure: reading.reason.message,
          failureValues: reading.reason.values ?? null,
          finishedAt: new Date(),
          updatedAt: new Date(),
        })
        .where(eq(rosterImports.id, id));
      return;
    }
    const pkg = reading.package;
    await db
      .update(rosterImports)
      .set({ systemName: pkg.manifest.systemName, progressTotal: pkg.rowCount, progressDone: 0 })
      .where(eq(rosterImports.id, id));
    const result = await applyRosterPackage(db, {
      orgId: job.orgId,
      pkg,
      dryRun: job.dryRun,
      actor: job.actor,
      now,
      onProgress: async (done, total) => {
        onProgress?.(done, total);
        await db
          .update(rosterImports)
          .set({ progressDone: done, progressTotal: total, updatedAt: new Date() })
          .where(eq(rosterImports.id, id));
      },
    });
    for (let i = 0; i < result.lines.length; i += 2000) {
      await db.insert(rosterImportLines).values(
        result.lines.slice(i, i + 2000).map((l) => ({
          importId: id,
          file: l.file,
          line: l.line,
          sourcedId: l.sourcedId,
          kind: l.kind,
          reason: l.reason,
          reasonValues: l.values ?? null,
        })),
      );
    }
    await db
      .update(rosterImports)
      .set({
        status: job.dryRun ? 'previewed' : 'done',
        counts: result.counts,
        progressDone: pkg.rowCount,
        failure: null,
        failureValues: null,
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(rosterImports.id, id));
  } catch (error) {
    await db
      .update(rosterImports)
      .set({
        status: 'failed',
        failure: 'ops.roster.failed',
        finishedAt: new Date(),
        updatedAt: new Date(),
      })
      .where(eq(rosterImports.id, id));
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

// A running import moves every chunk; one still for this long died with its process.
const STALE_AFTER_MS = 15 * 60_000;

async function settleStale(db: Queryable, now: Date) {
  await db
    .update(rosterImports)
    .set({ status: 'failed', failure: 'ops.roster.interrupted', finishedAt: now, updatedAt: now })
    .where(
      and(
        eq(rosterImports.status, 'running'),
        lt(rosterImports.updatedAt, new Date(now.getTime() - STALE_AFTER_MS)),
      ),
    );
}

export type RosterImportSummary = {
  id: number;
  orgId: number;
  orgName: string;
  status: RosterImportStatus;
  dryRun: boolean;
  fileName: string;
  systemName: string | null;
  startedBy: string | null;
  createdAt: Date;
  finishedAt: Date | null;
  progressDone: number;
  progressTotal: number;
  counts: RosterCounts;
  failure: MessageWording | null;
  lineCount: number;
};

const orgName = sql<string>`(select o.title from organizations o where o.id = ${rosterImports.orgId})`;

const summaryColumns = {
  id: rosterImports.id,
  orgId: rosterImports.orgId,
  orgName,
  status: rosterImports.status,
  dryRun: rosterImports.dryRun,
  fileName: rosterImports.fileName,
  systemName: rosterImports.systemName,
  startedBy: users.email,
  createdAt: rosterImports.createdAt,
  finishedAt: rosterImports.finishedAt,
  progressDone: rosterImports.progressDone,
  progressTotal: rosterImports.progressTotal,
  counts: rosterImports.counts,
  failure: rosterImports.failure,
  failureValues: rosterImports.failureValues,
  lineCount: sql<number>`(select count(*)::int from roster_import_lines l where l.import_id = ${rosterImports.id})`,
};

function toSummary(row: Record<string, unknown>): RosterImportSummary {
  const { failure, failureValues, counts, ...rest } = row as {
    failure: string | null;
    failureValues: Record<string, string | number> | null;
    counts: RosterCounts;
  };
  return {
    ...(rest as Omit<RosterImportSummary, 'failure' | 'counts'>),
    counts: { ...emptyCounts(), ...counts },
    failure: failure ? { message: failure, values: failureValues ?? undefined } : null,
  };
}

const scoped = (scope: OrgScope) =>
  scope.kind === 'all'
    ? undefined
    : inArray(rosterImports.orgId, scope.orgIds.length > 0 ? [...scope.orgIds] : [-1]);

/** The imports a staff member may see, newest first. */
export async function rosterImportList(db: Queryable, scope: OrgScope, now = new Date()) {
  await settleStale(db, now);
  const rows = await db
    .select(summaryColumns)
    .from(rosterImports)
    .leftJoin(users, eq(users.id, rosterImports.startedBy))
    .where(scoped(scope))
    .orderBy(desc(rosterImports.id))
    .limit(50);
  return rows.map(toSummary);
}

export type RosterReportLine = {
  file: string;
  line: number;
  sourcedId: string | null;
  kind: string;
  reason: MessageWording;
};

/** One import in scope and the first lines of its report; null outside scope or unknown. */
export async function rosterImportReport(
  db: Queryable,
  scope: OrgScope,
  id: number,
  now = new Date(),
): Promise<{ summary: RosterImportSummary; lines: RosterReportLine[] } | null> {
  await settleStale(db, now);
  const [row] = await db
    .select(summaryColumns)
    .from(rosterImports)
    .leftJoin(users, eq(users.id, rosterImports.startedBy))
    .where(and(eq(rosterImports.id, id), scoped(scope)));
  if (!row) return null;
  const lines = await reportLines(db, id, REPORT_PAGE_SIZE);
  return { summary: toSummary(row), lines };
}

/** The lines of an import's report in file and line order (all of them for the CSV). */
export async function reportLines(
  db: Queryable,
  id: number,
  limit?: number,
): Promise<RosterReportLine[]> {
  const query = db
    .select()
    .from(rosterImportLines)
    .where(eq(rosterImportLines.importId, id))
    .orderBy(rosterImportLines.file, rosterImportLines.line, rosterImportLines.id);
  const rows = limit ? await query.limit(limit) : await query;
  return rows.map((r) => ({
    file: r.file,
    line: r.line,
    sourcedId: r.sourcedId,
    kind: r.kind,
    reason: { message: r.reason, values: r.reasonValues ?? undefined },
  }));
}

/** The organisation of an import, for the scope check of its actions; null when unknown. */
export async function rosterImportOrg(db: Queryable, id: number): Promise<number | null> {
  const [row] = await db
    .select({ orgId: rosterImports.orgId })
    .from(rosterImports)
    .where(eq(rosterImports.id, id));
  return row?.orgId ?? null;
}

export async function rosterImportCount(db: Queryable): Promise<number> {
  const [row] = await db.select({ n: count() }).from(rosterImports);
  return row?.n ?? 0;
}
