import { createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
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
// A job whose process stopped is taken over by another (the lease below).

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

/**
 * Whether an import may be applied now (after a dry run, or to finish one that stopped); the
 * reason as a message key when not. One whose package the store lost cannot be: the staff
 * import the package again.
 */
export function applyRefusal(job: {
  status: RosterImportStatus;
  failure: { message: string } | string | null;
}): string | null {
  const failure = typeof job.failure === 'string' ? job.failure : job.failure?.message;
  return MOVES[job.status].includes('queued') && failure !== 'ops.roster.packageGone'
    ? null
    : 'ops.roster.error.notApplicable';
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
    .select({ status: rosterImports.status, failure: rosterImports.failure })
    .from(rosterImports)
    .where(eq(rosterImports.id, id));
  if (!row) return 'ops.roster.error.notApplicable';
  const refusal = applyRefusal({ ...row, status: row.status as RosterImportStatus });
  if (refusal) return refusal;
  const moved = await db
    .update(rosterImports)
    .set({
      status: 'queued',
      dryRun: false,
      actor,
      progressDone: 0,
      progressTotal: 0,
      interruptions: 0,
      updatedAt: new Date(),
    })
    .where(and(eq(rosterImports.id, id), eq(rosterImports.status, row.status)))
    .returning({ id: rosterImports.id });
  return moved.length === 1 ? null : 'ops.roster.error.notApplicable';
}

// A running import holds a lease (decision 035): its process beats the row's heartbeat every
// HEARTBEAT_MS; one whose heartbeat is older than STALE_AFTER_MS lost its process (a restart,
// a crash, a machine gone) and is taken over by the next process that looks, which runs it
// again from its package: the import is idempotent by sourcedId, so what the first run wrote
// is found unchanged. Every claim raises the lease, and every write of the job's row names the
// lease it holds, so a process that was only slow and lost its job writes no more of it.
export const HEARTBEAT_MS = 10_000;
export const STALE_AFTER_MS = 2 * 60_000;
/** Taken over this many times, a job is not run again by itself (it may be what stops them). */
export const MAX_INTERRUPTIONS = 3;

/** An import this process holds: its id and lease, and how often it was taken over. */
export type RosterClaim = { id: number; lease: number; interruptions: number };

// The imports this process runs: never taken over by itself, however late its heartbeat (an
// embedded database answers one statement at a time, so a long one holds the heartbeat back).
const runningHere = new Set<number>();

/** The claim's moves: the job is this process's now, alive as of the database's clock. */
const claimed = sql`status = 'running', lease = lease + 1, heartbeat_at = now(), updated_at = now(),
  interruptions = interruptions + (case when status = 'running' then 1 else 0 end)`;

/**
 * Takes the oldest import waiting for a process: queued (for at least `queuedForMs`: the
 * process that queued it runs it at once, so only one it left behind waits long), or running
 * with a heartbeat older than `staleAfterMs` (at a start with the embedded database, which one
 * process alone opens, every running import is an orphan: 0).
 */
export async function claimRosterImport(
  db: Queryable,
  options: { staleAfterMs?: number; queuedForMs?: number } = {},
): Promise<RosterClaim | null> {
  const stale = options.staleAfterMs ?? STALE_AFTER_MS;
  const waited = options.queuedForMs ?? 0;
  const rows = rowsOf<RosterClaim>(
    await db.execute(sql`update roster_imports set ${claimed}
      where id = (select id from roster_imports
        where ((status = 'queued' and updated_at <= now() - ${waited}::int * interval '1 millisecond')
            or (status = 'running' and (heartbeat_at is null
              or heartbeat_at <= now() - ${stale}::int * interval '1 millisecond')))
          and id not in (select json_array_elements_text(${JSON.stringify([...runningHere])}::json)::int)
        order by id for update skip locked limit 1)
      returning id, lease, interruptions`),
  );
  return rows[0] ?? null;
}

/** Claims one queued import by its id (the CLI runs the one it started); null if taken. */
export async function claimRosterImportById(
  db: Queryable,
  id: number,
): Promise<RosterClaim | null> {
  const rows = rowsOf<RosterClaim>(
    await db.execute(sql`update roster_imports set ${claimed}
      where id = ${id} and status = 'queued' returning id, lease, interruptions`),
  );
  return rows[0] ?? null;
}

/**
 * Runs waiting imports (queued, or orphaned by a stopped process) until none is left, or,
 * once `stopping()` says so (the process is shutting down, issue 40), after the one running.
 */
export async function runQueuedRosterImports(
  db: Queryable,
  store: BookFileStore,
  options: {
    now?: () => Date;
    staleAfterMs?: number;
    queuedForMs?: number;
    stopping?: () => boolean;
  } = {},
): Promise<number[]> {
  const ran: number[] = [];
  while (!options.stopping?.()) {
    const claim = await claimRosterImport(db, options);
    if (claim === null) return ran;
    await runRosterImport(db, store, claim, options.now?.() ?? new Date());
    ran.push(claim.id);
  }
  return ran;
}

/** Thrown inside a run whose job another process took over: it stops writing at once. */
class LeaseLost extends Error {
  constructor(id: number) {
    super(`roster import ${id} was taken over by another process`);
  }
}

/** Whether the package of an import is still in the store (it is never removed by us). */
async function packageKept(store: BookFileStore, storagePath: string): Promise<boolean> {
  const main = storagePath.endsWith('/') ? `${storagePath}manifest.csv` : storagePath;
  return (await store.size(main).catch(() => null)) !== null;
}

/**
 * Runs one claimed import to its end. A package the store no longer has, or a job taken over
 * too often, ends 'failed' with the reason; an error ends it 'failed', to be applied again.
 */
export async function runRosterImport(
  db: Queryable,
  store: BookFileStore,
  claim: RosterClaim,
  now: Date,
  onProgress?: (done: number, total: number) => void,
) {
  const { id } = claim;
  const [job] = await db.select().from(rosterImports).where(eq(rosterImports.id, id));
  if (!job) return;
  /** Writes the job's row while this process holds it; false once another took it over. */
  const held = async (q: Queryable, values: Partial<typeof rosterImports.$inferInsert>) =>
    (
      await q
        .update(rosterImports)
        .set({ ...values, heartbeatAt: sql`now()`, updatedAt: new Date() })
        .where(
          and(
            eq(rosterImports.id, id),
            eq(rosterImports.lease, claim.lease),
            eq(rosterImports.status, 'running'),
          ),
        )
        .returning({ id: rosterImports.id })
    ).length === 1;
  const hold = async (q: Queryable, values: Partial<typeof rosterImports.$inferInsert>) => {
    if (!(await held(q, values))) throw new LeaseLost(id);
  };
  const end = (
    status: RosterImportStatus,
    failure: string,
    failureValues: Record<string, string | number> | null = null,
  ) => held(db, { status, failure, failureValues, finishedAt: new Date() });

  if (claim.interruptions > MAX_INTERRUPTIONS) {
    await end('failed', 'ops.roster.interruptedTooOften', { count: claim.interruptions });
    return;
  }
  if (!(await packageKept(store, job.storagePath))) {
    await end('failed', 'ops.roster.packageGone');
    return;
  }
  runningHere.add(id);
  const heartbeat = setInterval(() => {
    held(db, {}).catch(() => undefined);
  }, HEARTBEAT_MS);
  heartbeat.unref?.();
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
    await db.transaction(async (tx) => {
      await hold(tx, { progressDone: 0, progressTotal: 0 });
      await tx.delete(rosterImportLines).where(eq(rosterImportLines.importId, id));
    });
    if (!reading.ok) {
      await end('refused', reading.reason.message, reading.reason.values ?? null);
      return;
    }
    const pkg = reading.package;
    await hold(db, {
      systemName: pkg.manifest.systemName,
      progressTotal: pkg.rowCount,
      progressDone: 0,
    });
    const result = await applyRosterPackage(db, {
      orgId: job.orgId,
      pkg,
      dryRun: job.dryRun,
      actor: job.actor,
      now,
      onProgress: async (done, total) => {
        onProgress?.(done, total);
        await hold(db, { progressDone: done, progressTotal: total });
      },
    });
    // The report and the end together, and only while the job is still this process's.
    await db.transaction(async (tx) => {
      await hold(tx, {
        status: job.dryRun ? 'previewed' : 'done',
        counts: result.counts,
        progressDone: pkg.rowCount,
        failure: null,
        failureValues: null,
        finishedAt: new Date(),
      });
      for (let i = 0; i < result.lines.length; i += 2000) {
        await tx.insert(rosterImportLines).values(
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
    });
  } catch (error) {
    // Taken over: the other process finishes it; this one has nothing more to say.
    if (error instanceof LeaseLost) return;
    await end('failed', 'ops.roster.failed');
    throw error;
  } finally {
    clearInterval(heartbeat);
    runningHere.delete(id);
    await rm(work, { recursive: true, force: true });
  }
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
  /** Running, but its process has stopped: another takes it over shortly. */
  stalled: boolean;
  /** How many times this run was taken over from a process that stopped. */
  interruptions: number;
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
  stalled: sql<boolean>`(${rosterImports.status} = 'running' and (${rosterImports.heartbeatAt} is null
    or ${rosterImports.heartbeatAt} <= now() - ${STALE_AFTER_MS}::int * interval '1 millisecond'))`,
  interruptions: rosterImports.interruptions,
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
export async function rosterImportList(db: Queryable, scope: OrgScope) {
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
): Promise<{ summary: RosterImportSummary; lines: RosterReportLine[] } | null> {
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
