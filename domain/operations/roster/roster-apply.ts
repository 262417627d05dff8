import { and, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';
import { sectionMembers } from '#db/schema/courses.ts';
import { rosterRecords } from '#db/schema/roster.ts';
import { rowsOf } from '#db/seed/bulk-insert.ts';
import { forgetAccounts } from '#domain/accounts/service.ts';
import { endMemberships } from '#domain/courses/membership.ts';
import { deadlineDay as calendarDayIn } from '#domain/courses/opting.ts';
import type { AuditActor, AuditValues } from '#domain/operations/audit.ts';
import type { RosterFile } from './oneroster-tables.ts';
import type { LineRefusal, RosterPackage } from './package-reader.ts';
import { OUTCOMES, RECORD_KINDS, type RecordKind, type RosterCounts } from './roster-counts.ts';
import {
  courseCodeParts,
  DEFAULT_SECTION_TIME_ZONE,
  defaultOptOutDeadline,
  enrolmentPhase,
  isServedRole,
  memberRoleOf,
  recordDigest,
  scopedRosterId,
  sectionTermOf,
} from './roster-mapping.ts';
import type { EnrollmentRow, RowStatus } from './roster-rows.ts';

// Issue 39: a read package compared with what the campus sent before, then written set-based
// (decision 035). Every record is created, updated, ended, unchanged, refused or ignored; a dry
// run stops after the comparison. Importing the same package twice changes nothing: each
// record's digest is kept in roster_records, and an unchanged record is neither written nor
// audited.

const FILE_OF: Record<RecordKind, string> = {
  term: 'academicSessions.csv',
  course: 'courses.csv',
  class: 'classes.csv',
  user: 'users.csv',
  role: 'roles.csv',
  enrollment: 'enrollments.csv',
};

/** Records written per statement. */
const CHUNK = 2000;

export type ApplyInput = {
  orgId: number;
  pkg: RosterPackage;
  dryRun: boolean;
  actor: AuditActor;
  now: Date;
  /** Called as records are settled: how many of the package's rows are done. */
  onProgress?: (done: number, total: number) => Promise<void> | void;
};

export type ApplyResult = { counts: RosterCounts; lines: LineRefusal[] };

type Known = { localId: number; digest: string; endedAt: Date | null; createdLocal: boolean };

export function emptyCounts(): RosterCounts {
  return Object.fromEntries(
    RECORD_KINDS.map((kind) => [kind, Object.fromEntries(OUTCOMES.map((o) => [o, 0]))]),
  ) as RosterCounts;
}

type Change<T> = {
  sourcedId: string;
  line: number;
  values: T;
  digest: string;
  known: Known | undefined;
};

/** What a package changes of one kind of record: written, and ended. */
type ChangeSet<T> = { changes: Change<T>[]; ends: Change<T>[] };

const changeSet = <T>(): ChangeSet<T> => ({ changes: [], ends: [] });

/** A record an earlier import made and nothing has ended since. */
const isLive = (k: Known | undefined): k is Known => k !== undefined && k.endedAt === null;

/** Compares and (unless a dry run) writes a package for one organisation. */
export async function applyRosterPackage(db: Queryable, input: ApplyInput): Promise<ApplyResult> {
  const { orgId, pkg, dryRun } = input;
  const counts = emptyCounts();
  const lines: LineRefusal[] = [...pkg.refusals];
  for (const line of pkg.refusals) counts[kindOfFile(line.file)].refused++;
  const total = pkg.rowCount;
  let done = pkg.refusals.length;
  const progress = async (n: number) => {
    done += n;
    await input.onProgress?.(Math.min(done, total), total);
  };

  // A bulk file ends what it no longer names, so it compares with everything known; a delta
  // only needs the records its rows name (issue 39: a 1,000-row delta in 5 s at a campus of
  // tens of thousands of records).
  const anyBulk = Object.values(pkg.manifest.modes).some((mode) => mode === 'bulk');
  const known = await loadKnown(db, orgId, anyBulk ? null : namedIds(pkg.rows));
  const knownOf = (kind: RecordKind, sourcedId: string) => known.get(`${kind}\u0000${sourcedId}`);
  const alive = (kind: RecordKind, sourcedId: string) => isLive(knownOf(kind, sourcedId));
  /** A row of the report: refused or ignored, with its reason. */
  const report =
    (outcome: 'refused' | 'ignored') =>
    (
      kind: RecordKind,
      line: number,
      sourcedId: string | null,
      reason: string,
      values?: Record<string, string | number>,
    ) => {
      counts[kind][outcome]++;
      lines.push({
        file: FILE_OF[kind],
        line,
        sourcedId,
        kind: outcome,
        reason,
        ...(values ? { values } : {}),
      });
    };
  const refuse = report('refused');
  const ignore = report('ignored');
  /** A row of the report staff should look at; the record itself is written. */
  const warn = (
    kind: RecordKind,
    line: number,
    sourcedId: string | null,
    reason: string,
    values?: Record<string, string | number>,
  ) => {
    lines.push({
      file: FILE_OF[kind],
      line,
      sourcedId,
      kind: 'warning',
      reason,
      ...(values ? { values } : {}),
    });
  };
  /** A record a row names: sent in this package, or live from an earlier import. */
  const named = (sent: { has(id: string): boolean }, kind: RecordKind, id: string) =>
    sent.has(id) || alive(kind, id);
  /** Refuses a row naming what does not exist (the first such column); true when it did. */
  const refusedReference = (
    kind: RecordKind,
    row: { line: number; sourcedId: string },
    references: readonly (readonly [column: string, value: string, found: boolean])[],
  ) => {
    const missing = references.find(([, , found]) => !found);
    if (missing) {
      refuse(kind, row.line, row.sourcedId, 'ops.roster.line.unknownReference', {
        column: missing[0],
        value: missing[1].slice(0, 60),
      });
    }
    return missing !== undefined;
  };

  /** Ends a live record (line 0: a bulk file no longer names it). */
  const end = <T>(
    kind: RecordKind,
    sourcedId: string,
    line: number,
    k: Known,
    into: ChangeSet<T>,
  ) => {
    counts[kind].ended++;
    into.ends.push({ sourcedId, line, values: null as T, digest: k.digest, known: k });
  };
  /**
   * A bulk file is the whole set of its records (OneRoster 1.2 CSV, decision 035): a live record
   * this organisation's roster made that the file no longer names has ended, as if it came with
   * `tobedeleted`. A row the file holds names its record even when it was refused; a row whose
   * sourcedId could not be read might name any, so that file ends nothing it does not name.
   * Only roster records are weighed: what staff, the LMS or a sign-in made is never in them.
   */
  const endAbsent = <T>(kind: RecordKind, file: RosterFile, into: ChangeSet<T>) => {
    if (pkg.manifest.modes[file] !== 'bulk') return;
    const named = new Set<string>(pkg.rows[file].map((r) => r.sourcedId));
    let unreadable = false;
    for (const r of pkg.refusals) {
      if (r.file !== FILE_OF[kind]) continue;
      if (r.sourcedId === null) unreadable = true;
      else named.add(r.sourcedId);
    }
    if (unreadable) {
      warn(kind, 0, null, 'ops.roster.line.bulkEndsSkipped');
      return;
    }
    for (const [key, k] of known) {
      const [recordKind, sourcedId] = key.split('\u0000') as [string, string];
      if (recordKind !== kind || !isLive(k) || named.has(sourcedId)) continue;
      end(kind, sourcedId, 0, k, into);
    }
  };
  /** Sorts a record into created / updated / unchanged / ended. */
  const sort = <T>(
    kind: RecordKind,
    row: { sourcedId: string; line: number; status: RowStatus },
    values: T | null,
    into: ChangeSet<T>,
  ) => {
    const k = knownOf(kind, row.sourcedId);
    if (row.status === 'tobedeleted' || values === null) {
      if (isLive(k)) end(kind, row.sourcedId, row.line, k, into);
      else counts[kind].unchanged++;
      return;
    }
    // Whom a new user was linked to is our finding, not what the campus sent.
    const { linkTo: _linkTo, ...sent } = values as Record<string, unknown>;
    const digest = recordDigest(sent);
    if (isLive(k) && k.digest === digest) {
      counts[kind].unchanged++;
      return;
    }
    counts[kind][isLive(k) ? 'updated' : 'created']++;
    into.changes.push({ sourcedId: row.sourcedId, line: row.line, values, digest, known: k });
  };

  // ——— orgs: all of the package's orgs are this store organisation ———
  const orgsSent = pkg.manifest.modes.orgs !== 'absent';
  const orgIds = new Set(pkg.rows.orgs.map((o) => o.sourcedId));
  const orgKnown = (id: string) => !orgsSent || orgIds.has(id);
  await progress(pkg.rows.orgs.length);

  // ——— academicSessions → academic_terms ———
  const termRows = pkg.rows.academicSessions;
  const termsSent = new Map(
    termRows.filter((t) => t.status === 'active').map((t) => [t.sourcedId, t]),
  );
  const terms = changeSet<TermValues>();
  const termDates = new Map<string, { startDate: string; endDate: string }>();
  for (const t of termRows) {
    const parent = t.parentSourcedId;
    if (
      t.status === 'active' &&
      parent &&
      refusedReference('term', t, [['parentSourcedId', parent, named(termsSent, 'term', parent)]])
    ) {
      termsSent.delete(t.sourcedId);
      continue;
    }
    if (t.status === 'active')
      termDates.set(t.sourcedId, { startDate: t.startDate, endDate: t.endDate });
    sort(
      'term',
      t,
      t.status === 'active'
        ? {
            title: t.title,
            termType: t.type,
            startDate: t.startDate,
            endDate: t.endDate,
            parent: t.parentSourcedId,
          }
        : null,
      terms,
    );
  }
  endAbsent('term', 'academicSessions', terms);
  const termIds = new Map<string, number>();
  if (!dryRun) await writeTerms(db, input, terms, termIds);
  await progress(termRows.length);

  // ——— courses → courses ———
  const courses = changeSet<CourseValues>();
  const coursesSent = new Set<string>();
  for (const c of pkg.rows.courses) {
    if (
      c.status === 'active' &&
      refusedReference('course', c, [['orgSourcedId', c.orgSourcedId, orgKnown(c.orgSourcedId)]])
    )
      continue;
    if (c.status === 'active') coursesSent.add(c.sourcedId);
    sort(
      'course',
      c,
      c.status === 'active'
        ? { name: c.title, code: c.courseCode, ...courseCodeParts(c.courseCode, c.title) }
        : null,
      courses,
    );
  }
  const courseIds = new Map<string, number>();
  if (!dryRun) await writeCourses(db, input, courses, courseIds);
  await progress(pkg.rows.courses.length);

  // ——— classes → course_sections ———
  const missingTerms = pkg.rows.classes
    .flatMap((c) => c.termSourcedIds)
    .filter((id) => !termDates.has(id) && alive('term', id));
  const storedTerms = await termSpans(db, orgId, [...new Set(missingTerms)]);
  for (const [id, span] of storedTerms) termDates.set(id, span);
  const classes = changeSet<ClassValues>();
  const classesSent = new Set<string>();
  // What a new section takes from its course's latest section (time zone, opting method, fee),
  // else the documented defaults; its opt-out deadline is decided here, so a dry run reports
  // one that had to move or has passed (decision 035). Staff set them in Course Manager.
  const siblings = await latestSections(
    db,
    pkg.rows.classes.flatMap((c) => knownOf('course', c.courseSourcedId)?.localId ?? []),
  );
  const newSections = new Map<string, NewSection>();
  for (const c of pkg.rows.classes) {
    if (c.status === 'active') {
      const term = c.termSourcedIds.find((id) => !termDates.has(id));
      if (
        refusedReference('class', c, [
          ['courseSourcedId', c.courseSourcedId, named(coursesSent, 'course', c.courseSourcedId)],
          ['termSourcedIds', term ?? '', term === undefined],
          ['schoolSourcedId', c.schoolSourcedId, orgKnown(c.schoolSourcedId)],
        ])
      )
        continue;
      classesSent.add(c.sourcedId);
    }
    const span =
      c.status === 'active'
        ? sectionTermOf(c.termSourcedIds.map((id) => ({ id, ...termDates.get(id)! })))
        : null;
    if (span) {
      const sibling = siblings.get(knownOf('course', c.courseSourcedId)?.localId ?? 0);
      const timeZone = sibling?.time_zone ?? DEFAULT_SECTION_TIME_ZONE;
      const deadline = defaultOptOutDeadline(span, timeZone, input.now);
      newSections.set(c.sourcedId, {
        timeZone,
        optingMethod: sibling?.opting_method ?? 'opt-out',
        courseFeeCents: sibling?.course_fee_cents ?? null,
        addDropAt: deadline.at,
      });
      // Only a section this import creates takes the default; a known one keeps its own.
      if (!knownOf('class', c.sourcedId) && deadline.kind !== 'default') {
        warn('class', c.line, c.sourcedId, `ops.roster.line.optOut.${deadline.kind}`, {
          date: deadline.day,
        });
      }
    }
    sort(
      'class',
      c,
      span
        ? {
            name: c.title,
            number: c.classCode,
            course: c.courseSourcedId,
            term: span.termId,
            startDate: span.startDate,
            endDate: span.endDate,
          }
        : null,
      classes,
    );
  }
  endAbsent('class', 'classes', classes);
  const sectionIds = new Map<string, number>();
  if (!dryRun) await writeClasses(db, input, classes, sectionIds, termIds, courseIds, newSections);
  await progress(pkg.rows.classes.length);

  // ——— roles.csv: who the store serves (1.2 keeps a user's roles there, per org) ———
  const usersSent = new Map(
    pkg.rows.users.filter((u) => u.status === 'active').map((u) => [u.sourcedId, u]),
  );
  const rolesSent = pkg.manifest.modes.roles !== 'absent';
  const served = new Set<string>();
  const primaryOf = new Set<string>();
  const roles = changeSet<RoleValues>();
  for (const r of pkg.rows.roles) {
    if (r.status === 'active') {
      if (
        refusedReference('role', r, [
          ['userSourcedId', r.userSourcedId, named(usersSent, 'user', r.userSourcedId)],
          ['orgSourcedId', r.orgSourcedId, orgKnown(r.orgSourcedId)],
        ])
      )
        continue;
      const key = `${r.userSourcedId}\u0000${r.orgSourcedId}`;
      if (r.roleType === 'primary') {
        if (primaryOf.has(key)) {
          refuse('role', r.line, r.sourcedId, 'ops.roster.line.twoPrimaryRoles', {
            user: r.userSourcedId.slice(0, 60),
          });
          continue;
        }
        primaryOf.add(key);
      }
      if (isServedRole(r.role)) served.add(r.userSourcedId);
    }
    sort(
      'role',
      r,
      r.status === 'active'
        ? { user: r.userSourcedId, type: r.roleType, role: r.role, org: r.orgSourcedId }
        : null,
      roles,
    );
  }
  endAbsent('role', 'roles', roles);
  // An enrolment whose endDate has come is no longer active (OneRoster): like tobedeleted. The
  // campus's day is the one of its sections' time zone.
  const today = calendarDayIn(input.now, await campusTimeZone(db, orgId));
  const inForce = (e: EnrollmentRow) =>
    e.status === 'active' && enrolmentPhase(e, today) !== 'ended';
  const enrolled = new Set(pkg.rows.enrollments.filter(inForce).map((e) => e.userSourcedId));

  // ——— users → accounts and campus_people ———
  const users = changeSet<UserValues>();
  const userRows = [];
  for (const u of pkg.rows.users) {
    if (
      u.status === 'active' &&
      rolesSent &&
      !served.has(u.sourcedId) &&
      !enrolled.has(u.sourcedId) &&
      !knownOf('user', u.sourcedId)
    ) {
      usersSent.delete(u.sourcedId);
      ignore('user', u.line, u.sourcedId, 'ops.roster.line.roleNotServed');
      continue;
    }
    userRows.push(u);
  }
  const people = await resolvePeople(
    db,
    orgId,
    userRows.filter((u) => u.status === 'active' && !knownOf('user', u.sourcedId)),
  );
  const emailsTaken = new Set<string>();
  for (const u of userRows) {
    let linkTo: number | null = null;
    if (u.status === 'active' && !knownOf('user', u.sourcedId)) {
      const person = people.get(u.sourcedId)!;
      const email = u.email?.toLowerCase() ?? null;
      const problem =
        person.kind === 'refuse'
          ? person.reason
          : person.kind === 'create' && email === null
            ? 'ops.roster.line.noEmail'
            : person.kind === 'create' && emailsTaken.has(email!)
              ? 'ops.roster.line.emailTwice'
              : null;
      if (problem) {
        usersSent.delete(u.sourcedId);
        refuse('user', u.line, u.sourcedId, problem);
        continue;
      }
      if (email) emailsTaken.add(email);
      if (person.kind === 'link') linkTo = person.userId;
    }
    sort(
      'user',
      u,
      u.status === 'active'
        ? {
            email: u.email,
            firstName: u.givenName.slice(0, 200),
            lastName: u.familyName.slice(0, 200),
            campusId: u.identifier,
            linkTo,
          }
        : null,
      users,
    );
  }
  endAbsent('user', 'users', users);
  const userIds = new Map<string, number>();
  if (!dryRun) await writeUsers(db, input, users, userIds);
  await progress(pkg.rows.users.length);
  if (!dryRun)
    await writeRecords(db, orgId, 'role', roles, {
      localIdOf: (c) => userIds.get(c.values.user) ?? knownOf('user', c.values.user)?.localId ?? 0,
      at: input.now,
    });
  await progress(pkg.rows.roles.length);

  // ——— enrollments → section_members ———
  const enrollments = changeSet<EnrollmentValues>();
  const pairs = new Set<string>();
  for (const e of pkg.rows.enrollments) {
    if (inForce(e)) {
      if (
        refusedReference('enrollment', e, [
          ['classSourcedId', e.classSourcedId, named(classesSent, 'class', e.classSourcedId)],
          ['userSourcedId', e.userSourcedId, named(usersSent, 'user', e.userSourcedId)],
          ['schoolSourcedId', e.schoolSourcedId, orgKnown(e.schoolSourcedId)],
        ])
      )
        continue;
      const role = memberRoleOf(e.role, e.primary);
      if (role === null) {
        ignore('enrollment', e.line, e.sourcedId, 'ops.roster.line.roleIgnored', { role: e.role });
        continue;
      }
      const pair = `${e.classSourcedId}\u0000${e.userSourcedId}`;
      if (pairs.has(pair)) {
        refuse('enrollment', e.line, e.sourcedId, 'ops.roster.line.enrolledTwice');
        continue;
      }
      pairs.add(pair);
      sort(
        'enrollment',
        e,
        { section: e.classSourcedId, user: e.userSourcedId, role },
        enrollments,
      );
    } else sort('enrollment', e, null, enrollments);
  }
  endAbsent('enrollment', 'enrollments', enrollments);
  if (!dryRun) {
    await writeEnrollments(
      db,
      input,
      enrollments,
      {
        section: (id) => sectionIds.get(id) ?? knownOf('class', id)?.localId,
        user: (id) => userIds.get(id) ?? knownOf('user', id)?.localId,
      },
      async (n) => progress(n),
    );
    // A user the campus deleted keeps the account (purchases stay); their enrolments end.
    await endUsersEnrollments(
      db,
      input,
      users.ends.map((e) => e.known!.localId),
    );
  } else await progress(pkg.rows.enrollments.length);
  return { counts, lines };
}

type TermValues = {
  title: string;
  termType: string;
  startDate: string;
  endDate: string;
  parent: string | null;
};
type CourseValues = { name: string; code: string | null; department: string; number: string };
/** What a section the import creates starts with (a known one keeps its own). */
type NewSection = {
  timeZone: string;
  optingMethod: string;
  courseFeeCents: number | null;
  addDropAt: Date;
};
type ClassValues = {
  name: string;
  number: string | null;
  course: string;
  term: string;
  startDate: string;
  endDate: string;
};
type UserValues = {
  email: string | null;
  firstName: string;
  lastName: string;
  campusId: string | null;
  linkTo: number | null;
};
type RoleValues = { user: string; type: string; role: string; org: string };
type EnrollmentValues = { section: string; user: string; role: string };

function kindOfFile(file: string): RecordKind {
  const entry = Object.entries(FILE_OF).find(([, name]) => name === file);
  return (entry?.[0] as RecordKind | undefined) ?? 'enrollment';
}

/** Every value a package's rows carry: their own ids and every id they refer to (a superset). */
function namedIds(rows: RosterPackage['rows']): string[] {
  const ids = new Set<string>();
  for (const fileRows of Object.values(rows) as readonly Record<string, unknown>[][]) {
    for (const row of fileRows) {
      for (const value of Object.values(row)) {
        if (typeof value === 'string' && value !== '') ids.add(value);
        else if (Array.isArray(value))
          for (const item of value) if (typeof item === 'string') ids.add(item);
      }
    }
  }
  return [...ids];
}

/** What earlier imports made, by kind and sourcedId: all of it, or only the ids named. */
async function loadKnown(
  db: Queryable,
  orgId: number,
  only: readonly string[] | null,
): Promise<Map<string, Known>> {
  const columns = {
    kind: rosterRecords.kind,
    sourcedId: rosterRecords.sourcedId,
    localId: rosterRecords.localId,
    digest: rosterRecords.digest,
    endedAt: rosterRecords.endedAt,
    createdLocal: rosterRecords.createdLocal,
  };
  const rows =
    only === null
      ? await db.select(columns).from(rosterRecords).where(eq(rosterRecords.orgId, orgId))
      : (
          await Promise.all(
            chunks([...only], 5000).map((part) =>
              db
                .select(columns)
                .from(rosterRecords)
                .where(
                  and(
                    eq(rosterRecords.orgId, orgId),
                    inArray(rosterRecords.kind, [...RECORD_KINDS]),
                    inArray(rosterRecords.sourcedId, part),
                  ),
                ),
            ),
          )
        ).flat();
  return new Map(rows.map((r) => [`${r.kind}\u0000${r.sourcedId}`, r]));
}

async function termSpans(db: Queryable, orgId: number, sourcedIds: string[]) {
  const spans = new Map<string, { startDate: string; endDate: string }>();
  for (const part of chunks(sourcedIds)) {
    const rows = rowsOf<{ sourced_id: string; start_date: string; end_date: string }>(
      await db.execute(sql`select t.sourced_id, t.start_date::text, t.end_date::text
        from roster_records r join academic_terms t on t.id = r.local_id
        where r.org_id = ${orgId} and r.kind = 'term'
          and r.sourced_id in ${textSet(part)}`),
    );
    for (const r of rows) spans.set(r.sourced_id, { startDate: r.start_date, endDate: r.end_date });
  }
  return spans;
}

/** Ids as a set for `in`: one parameter, however many (a JSON array). */
const idSet = (ids: readonly number[]) =>
  sql`(select json_array_elements_text(${JSON.stringify(ids)}::json)::int)`;
/** Texts (sourcedIds) as a set for `in`, likewise. */
const textSet = (texts: readonly string[]) =>
  sql`(select json_array_elements_text(${JSON.stringify(texts)}::json))`;

function chunks<T>(items: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** One audit row per changed record, written with it (set-based: one statement a chunk). */
async function auditMany(
  tx: Queryable,
  input: ApplyInput,
  entries: {
    objectType: string;
    objectId: number;
    action: string;
    before?: AuditValues | null;
    after?: AuditValues | null;
  }[],
) {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    occurred_at: input.now.toISOString(),
    actor_user_id: input.actor.userId,
    acting_as_user_id: input.actor.actingAsUserId,
    actor_label: input.actor.label.slice(0, 300),
    org_id: input.orgId,
    object_type: e.objectType,
    object_id: String(e.objectId),
    action: e.action,
    before: e.before ?? null,
    after: e.after ?? null,
  }));
  await tx.execute(sql`insert into audit_events (occurred_at, actor_user_id, acting_as_user_id,
      actor_label, org_id, object_type, object_id, action, before, after)
    select occurred_at, actor_user_id, acting_as_user_id, actor_label, org_id, object_type,
      object_id, action, before, after
    from json_to_recordset(${JSON.stringify(rows)}::json) as r(occurred_at timestamptz,
      actor_user_id int, acting_as_user_id int, actor_label text, org_id int, object_type text,
      object_id text, action text, before jsonb, after jsonb)`);
}

/** Ends the rows an ended record made (terms, sections), those not ended already. */
async function endLocalRows<T>(
  tx: Queryable,
  table: SQL,
  set: ChangeSet<T>,
  now: Date,
  alsoSet: SQL = sql``,
) {
  for (const part of chunks(set.ends.map((e) => e.known!.localId))) {
    await tx.execute(sql`update ${table} set ended_at = ${now.toISOString()}${alsoSet}
      where id in ${idSet(part)} and ended_at is null`);
  }
}

/**
 * The audit rows of a kind's records: one per record written (created, or updated when it
 * was live; `describe` words it otherwise) and one per record ended.
 */
function recordAudits<T>(
  objectType: string,
  set: ChangeSet<T>,
  ids: Map<string, number>,
  describe: (change: Change<T>) => { action: string; after: AuditValues } = (c) => ({
    action: isLive(c.known) ? 'roster.update' : 'roster.create',
    after: { ...(c.values as AuditValues), sourcedId: c.sourcedId },
  }),
) {
  return [
    ...set.changes.map((c) => ({ objectType, objectId: ids.get(c.sourcedId)!, ...describe(c) })),
    ...set.ends.map((e) => ({
      objectType,
      objectId: e.known!.localId,
      action: 'roster.end',
      after: { sourcedId: e.sourcedId },
    })),
  ];
}

/** Keeps what the campus sent, per record: the row we made of it and its digest. */
async function writeRecords<T>(
  tx: Queryable,
  orgId: number,
  kind: RecordKind,
  set: ChangeSet<T>,
  options: {
    localIdOf: (change: Change<T>) => number;
    createdLocal?: (change: Change<T>) => boolean;
    at: Date;
  },
) {
  const { localIdOf, createdLocal, at } = options;
  for (const part of chunks(set.changes)) {
    const rows = part.map((c) => ({
      org_id: orgId,
      kind,
      sourced_id: c.sourcedId,
      local_id: localIdOf(c),
      digest: c.digest,
      created_local: createdLocal ? createdLocal(c) : (c.known?.createdLocal ?? false),
    }));
    await tx.execute(sql`insert into roster_records (org_id, kind, sourced_id, local_id, digest, created_local)
      select org_id, kind, sourced_id, local_id, digest, created_local
      from json_to_recordset(${JSON.stringify(rows)}::json)
        as r(org_id int, kind text, sourced_id text, local_id int, digest text, created_local boolean)
      on conflict (org_id, kind, sourced_id) do update set local_id = excluded.local_id,
        digest = excluded.digest, created_local = excluded.created_local, ended_at = null,
        updated_at = now()`);
  }
  for (const part of chunks(set.ends.map((e) => e.sourcedId))) {
    await tx
      .update(rosterRecords)
      .set({ endedAt: at, updatedAt: at })
      .where(
        and(
          eq(rosterRecords.orgId, orgId),
          eq(rosterRecords.kind, kind),
          inArray(rosterRecords.sourcedId, part),
          isNull(rosterRecords.endedAt),
        ),
      );
  }
}

/** The audit's name for each kind of record. */
const OBJECT_TYPE: Partial<Record<RecordKind, string>> = {
  term: 'term',
  course: 'course',
  class: 'section',
  user: 'user',
};

/**
 * Writes one kind of record in a transaction: `write` makes our rows (filling `ids` by
 * sourcedId), then what the campus sent is kept beside them and each change audited.
 */
async function writeKind<T>(
  db: Queryable,
  input: ApplyInput,
  kind: RecordKind,
  set: ChangeSet<T>,
  ids: Map<string, number>,
  write: (tx: Queryable) => Promise<void>,
  options: {
    createdLocal?: (change: Change<T>) => boolean;
    describe?: (change: Change<T>) => { action: string; after: AuditValues };
  } = {},
) {
  await db.transaction(async (tx) => {
    await write(tx);
    await writeRecords(tx, input.orgId, kind, set, {
      localIdOf: (c) => ids.get(c.sourcedId)!,
      createdLocal: options.createdLocal,
      at: input.now,
    });
    await auditMany(tx, input, recordAudits(OBJECT_TYPE[kind]!, set, ids, options.describe));
  });
}

/** Writes changed records a chunk a statement; each statement returns (id, sourced_id). */
async function upsertChanges<T>(
  tx: Queryable,
  changes: readonly Change<T>[],
  ids: Map<string, number>,
  statement: (part: Change<T>[]) => SQL,
) {
  for (const part of chunks(changes)) {
    const written = rowsOf<{ id: number; sourced_id: string }>(await tx.execute(statement(part)));
    for (const w of written) ids.set(w.sourced_id, w.id);
  }
}

async function writeTerms(
  db: Queryable,
  input: ApplyInput,
  set: ChangeSet<TermValues>,
  ids: Map<string, number>,
) {
  const { orgId, now } = input;
  await writeKind(db, input, 'term', set, ids, async (tx) => {
    await upsertChanges(tx, set.changes, ids, (part) => {
      const rows = part.map((c) => ({
        sourced_id: c.sourcedId,
        title: c.values.title.slice(0, 300),
        term_type: c.values.termType,
        start_date: c.values.startDate,
        end_date: c.values.endDate,
      }));
      return sql`insert into academic_terms (org_id, sourced_id, title, term_type, start_date, end_date)
          select ${orgId}, sourced_id, title, term_type, start_date, end_date
          from json_to_recordset(${JSON.stringify(rows)}::json)
            as r(sourced_id text, title text, term_type text, start_date date, end_date date)
          on conflict (org_id, sourced_id) do update set title = excluded.title,
            term_type = excluded.term_type, start_date = excluded.start_date,
            end_date = excluded.end_date, ended_at = null, updated_at = now()
          returning id, sourced_id`;
    });
    // Parents once every term of the package exists.
    const parents = set.changes.map((c) => ({ sourced_id: c.sourcedId, parent: c.values.parent }));
    for (const part of chunks(parents)) {
      await tx.execute(sql`update academic_terms t set parent_id = p.id
        from json_to_recordset(${JSON.stringify(part)}::json) as r(sourced_id text, parent text)
        left join academic_terms p on p.org_id = ${orgId} and p.sourced_id = r.parent
        where t.org_id = ${orgId} and t.sourced_id = r.sourced_id`);
    }
    await endLocalRows(tx, sql`academic_terms`, set, now, sql`, updated_at = now()`);
  });
}

async function writeCourses(
  db: Queryable,
  input: ApplyInput,
  set: ChangeSet<CourseValues>,
  ids: Map<string, number>,
) {
  const { orgId } = input;
  await writeKind(db, input, 'course', set, ids, async (tx) => {
    // A new course is inclusive access (the programme this import serves); staff change its
    // type in Course Manager, and a re-import leaves the type alone.
    await upsertChanges(tx, set.changes, ids, (part) => {
      const rows = part.map((c) => ({
        sourced_id: c.sourcedId,
        // Title and code as the campus wrote them (the reader refuses a title too long to keep);
        // department and number are our split of the code, for search, cut by code point.
        name: c.values.name,
        code: c.values.code,
        department: codePoints(c.values.department, 100),
        number: codePoints(c.values.number, 100),
      }));
      return sql`insert into courses (org_id, sourced_id, name, code, department, number)
          select ${orgId}, sourced_id, name, code, department, number
          from json_to_recordset(${JSON.stringify(rows)}::json)
            as r(sourced_id text, name text, code text, department text, number text)
          on conflict (org_id, sourced_id) do update set name = excluded.name,
            code = excluded.code, department = excluded.department, number = excluded.number
          returning id, sourced_id`;
    });
    // A course has no end of its own: its sections end with their classes.
  });
}

async function writeClasses(
  db: Queryable,
  input: ApplyInput,
  set: ChangeSet<ClassValues>,
  ids: Map<string, number>,
  termIds: Map<string, number>,
  courseIds: Map<string, number>,
  newSections: ReadonlyMap<string, NewSection>,
) {
  const { orgId, now } = input;
  const localOf = async (
    kind: 'term' | 'course',
    sourcedIds: string[],
    into: Map<string, number>,
  ) => {
    const missing = [...new Set(sourcedIds.filter((id) => !into.has(id)))];
    for (const part of chunks(missing)) {
      const rows = await db
        .select({ sourcedId: rosterRecords.sourcedId, localId: rosterRecords.localId })
        .from(rosterRecords)
        .where(
          and(
            eq(rosterRecords.orgId, orgId),
            eq(rosterRecords.kind, kind),
            inArray(rosterRecords.sourcedId, part),
          ),
        );
      for (const r of rows) into.set(r.sourcedId, r.localId);
    }
  };
  await localOf(
    'term',
    set.changes.map((c) => c.values.term),
    termIds,
  );
  await localOf(
    'course',
    set.changes.map((c) => c.values.course),
    courseIds,
  );
  await writeKind(db, input, 'class', set, ids, async (tx) => {
    await upsertChanges(tx, set.changes, ids, (part) => {
      const rows = part.map((c) => {
        const courseId = courseIds.get(c.values.course)!;
        const fresh = newSections.get(c.sourcedId)!;
        return {
          rs_course_id: scopedRosterId(orgId, c.sourcedId),
          sourced_id: c.sourcedId,
          course_id: courseId,
          term_id: termIds.get(c.values.term) ?? null,
          name: c.values.name.slice(0, 300),
          number: c.values.number?.slice(0, 100) ?? null,
          start_date: c.values.startDate,
          end_date: c.values.endDate,
          add_drop_at: fresh.addDropAt.toISOString(),
          time_zone: fresh.timeZone,
          opting_method: fresh.optingMethod,
          course_fee_cents: fresh.courseFeeCents,
        };
      });
      return sql`insert into course_sections (rs_course_id, sourced_id, course_id, term_id,
            name, number, start_date, end_date, add_drop_at, time_zone, opting_method, course_fee_cents)
          select rs_course_id, sourced_id, course_id, term_id, name, number, start_date, end_date,
            add_drop_at, time_zone, opting_method, course_fee_cents
          from json_to_recordset(${JSON.stringify(rows)}::json) as r(rs_course_id text, sourced_id text,
            course_id int, term_id int, name text, number text, start_date date, end_date date,
            add_drop_at timestamptz, time_zone text, opting_method text, course_fee_cents int)
          on conflict (rs_course_id) do update set sourced_id = excluded.sourced_id,
            course_id = excluded.course_id, term_id = excluded.term_id, name = excluded.name,
            number = excluded.number, start_date = excluded.start_date, end_date = excluded.end_date,
            ended_at = null
          returning id, sourced_id`;
    });
    await endLocalRows(tx, sql`course_sections`, set, now);
  });
}

type SectionSettings = {
  course_id: number;
  time_zone: string;
  opting_method: string;
  course_fee_cents: number | null;
};

/** The latest section of each of these courses: what a new section of the course copies. */
async function latestSections(
  db: Queryable,
  courseIds: readonly number[],
): Promise<Map<number, SectionSettings>> {
  const found = new Map<number, SectionSettings>();
  for (const part of chunks([...new Set(courseIds)])) {
    const rows = rowsOf<SectionSettings>(
      await db.execute(sql`select distinct on (course_id) course_id, time_zone, opting_method, course_fee_cents
        from course_sections where course_id in ${idSet(part)}
        order by course_id, id desc`),
    );
    for (const r of rows) found.set(r.course_id, r);
  }
  return found;
}

/** At most `max` code points of a text (never half of a surrogate pair). */
const codePoints = (text: string, max: number) => Array.from(text).slice(0, max).join('');

type Person =
  | { kind: 'link'; userId: number }
  | { kind: 'create' }
  | { kind: 'refuse'; reason: string };

/**
 * Who a new roster user is (issue 39): the person who signed in through this organisation's
 * campus with that id (subject = sourcedId, or campus id = identifier); else the account that
 * holds the same e-mail address, when it is verified; never a second account for an address
 * (an unverified holder is refused, to be settled by staff); else a new account.
 */
async function resolvePeople(
  db: Queryable,
  orgId: number,
  rows: { sourcedId: string; email: string | null; identifier: string | null }[],
): Promise<Map<string, Person>> {
  const found = new Map<string, Person>();
  for (const part of chunks(rows)) {
    const keys = part.map((u) => ({
      sourced_id: u.sourcedId,
      identifier: u.identifier,
      email: u.email?.toLowerCase() ?? null,
    }));
    const matches = rowsOf<{
      sourced_id: string;
      campus_user: number | null;
      email_user: number | null;
      email_verified: boolean | null;
      email_linked: boolean | null;
    }>(
      await db.execute(sql`select k.sourced_id,
          (select ci.user_id from campus_identities ci join campus_sign_ins cs on cs.id = ci.campus_sign_in_id
            where cs.org_id = ${orgId} and (ci.subject = k.sourced_id or (k.identifier is not null and ci.campus_id = k.identifier))
            order by ci.id limit 1) as campus_user,
          u.id as email_user, u.email_verified_at is not null as email_verified,
          exists (select 1 from campus_people cp where cp.org_id = ${orgId} and cp.user_id = u.id and cp.sourced_id is not null and cp.sourced_id <> k.sourced_id) as email_linked
        from json_to_recordset(${JSON.stringify(keys)}::json) as k(sourced_id text, identifier text, email text)
        left join users u on lower(u.email) = k.email`),
    );
    for (const m of matches) {
      if (m.campus_user !== null) found.set(m.sourced_id, { kind: 'link', userId: m.campus_user });
      else if (m.email_user === null) found.set(m.sourced_id, { kind: 'create' });
      else if (m.email_linked)
        found.set(m.sourced_id, { kind: 'refuse', reason: 'ops.roster.line.emailTaken' });
      else if (m.email_verified) found.set(m.sourced_id, { kind: 'link', userId: m.email_user });
      else found.set(m.sourced_id, { kind: 'refuse', reason: 'ops.roster.line.unverifiedAccount' });
    }
  }
  return found;
}

async function writeUsers(
  db: Queryable,
  input: ApplyInput,
  set: ChangeSet<UserValues>,
  ids: Map<string, number>,
) {
  const { orgId } = input;
  const created = new Set<string>();
  const describe = (c: Change<UserValues>) => ({
    action: created.has(c.sourcedId) ? 'roster.create' : c.known ? 'roster.update' : 'roster.link',
    after: {
      sourcedId: c.sourcedId,
      campusId: c.values.campusId,
      firstName: c.values.firstName,
      lastName: c.values.lastName,
    },
  });
  const createdLocal = (c: Change<UserValues>) =>
    created.has(c.sourcedId) || (c.known?.createdLocal ?? false);
  await writeKind(
    db,
    input,
    'user',
    set,
    ids,
    async (tx) => {
      const fresh = set.changes.filter((c) => !c.known && c.values.linkTo === null);
      for (const part of chunks(fresh)) {
        // No password: they sign in through the campus, or set one by the reset link (which
        // proves the address; the roster's word alone does not).
        const rows = part.map((c) => ({
          email: c.values.email,
          first_name: c.values.firstName,
          last_name: c.values.lastName,
          sourced_id: c.sourcedId,
        }));
        const written = rowsOf<{ id: number; email: string }>(
          await tx.execute(sql`insert into users (email, first_name, last_name, org_id, email_verified_at)
          select email, first_name, last_name, ${orgId}, null
          from json_to_recordset(${JSON.stringify(rows)}::json) as r(email text, first_name text, last_name text, sourced_id text)
          returning id, email`),
        );
        const byEmail = new Map(written.map((w) => [w.email.toLowerCase(), w.id]));
        for (const c of part) {
          ids.set(c.sourcedId, byEmail.get(c.values.email!.toLowerCase())!);
          created.add(c.sourcedId);
        }
      }
      for (const c of set.changes) {
        if (c.values.linkTo !== null) ids.set(c.sourcedId, c.values.linkTo);
        else if (c.known) ids.set(c.sourcedId, c.known.localId);
      }
      // The names of an account the roster made follow the roster; a linked account's are the person's.
      const renamed = set.changes.filter((c) => c.known?.createdLocal);
      for (const part of chunks(renamed)) {
        const rows = part.map((c) => ({
          id: c.known!.localId,
          first_name: c.values.firstName,
          last_name: c.values.lastName,
        }));
        await tx.execute(sql`update users u set first_name = r.first_name, last_name = r.last_name
        from json_to_recordset(${JSON.stringify(rows)}::json) as r(id int, first_name text, last_name text)
        where u.id = r.id`);
      }
      for (const part of chunks(set.changes)) {
        const rows = part.map((c) => ({
          user_id: ids.get(c.sourcedId)!,
          sourced_id: c.sourcedId,
          campus_id: c.values.campusId,
        }));
        await tx.execute(sql`insert into campus_people (org_id, user_id, sourced_id, campus_id)
        select ${orgId}, user_id, sourced_id, campus_id
        from json_to_recordset(${JSON.stringify(rows)}::json) as r(user_id int, sourced_id text, campus_id text)
        on conflict (org_id, user_id) do update set sourced_id = excluded.sourced_id,
          campus_id = excluded.campus_id, updated_at = now()`);
      }
    },
    { createdLocal, describe },
  );
  forgetAccounts([...ids.values()]);
}

async function writeEnrollments(
  db: Queryable,
  input: ApplyInput,
  set: ChangeSet<EnrollmentValues>,
  local: { section: (id: string) => number | undefined; user: (id: string) => number | undefined },
  progress: (n: number) => Promise<void>,
) {
  const { orgId, now } = input;
  for (const part of chunks(set.changes)) {
    await db.transaction(async (tx) => {
      const rows = part.map((c) => ({
        sourced_id: c.sourcedId,
        rs_id: scopedRosterId(orgId, c.sourcedId),
        section_id: local.section(c.values.section)!,
        user_id: local.user(c.values.user)!,
        role: c.values.role,
      }));
      // New members: opted in (the inclusive-access default), billed by course fee when the
      // section has one and they are a student; their opt-out deadline is the section's.
      const added = rowsOf<{
        id: number;
        section_id: number;
        user_id: number;
        role: string;
        rs_coursemember_id: string;
      }>(
        await tx.execute(sql`insert into section_members (section_id, user_id, role, opt_status, is_course_fee,
            add_drop_date, rs_coursemember_id)
          select r.section_id, r.user_id, r.role, 'opted_in',
            r.role = 'student' and s.course_fee_cents is not null, s.add_drop_at, r.rs_id
          from json_to_recordset(${JSON.stringify(rows)}::json)
            as r(sourced_id text, rs_id text, section_id int, user_id int, role text)
          join course_sections s on s.id = r.section_id
          on conflict do nothing
          returning id, section_id, user_id, role, rs_coursemember_id`),
      );
      // A person already in the section (the LMS put them there, or a roster role changed):
      // the enrolment is theirs; only its role follows the roster.
      const members = rowsOf<{ id: number; section_id: number; user_id: number; role: string }>(
        await tx.execute(sql`update section_members m set role = r.role
          from json_to_recordset(${JSON.stringify(rows)}::json)
            as r(sourced_id text, rs_id text, section_id int, user_id int, role text)
          where m.section_id = r.section_id and m.user_id = r.user_id
          returning m.id, m.section_id, m.user_id, m.role`),
      );
      const memberOf = new Map(members.map((m) => [`${m.section_id}:${m.user_id}`, m.id]));
      const addedKeys = new Set(added.map((a) => `${a.section_id}:${a.user_id}`));
      const lost = rows.filter((r) => !memberOf.has(`${r.section_id}:${r.user_id}`));
      if (lost.length > 0) throw new Error('roster enrolment without a member row');
      await writeRecords(
        tx,
        orgId,
        'enrollment',
        { changes: part, ends: [] },
        {
          localIdOf: (c) => {
            const r = rows[part.indexOf(c)]!;
            return memberOf.get(`${r.section_id}:${r.user_id}`)!;
          },
          at: now,
        },
      );
      await auditMany(
        tx,
        input,
        rows.map((r) => ({
          objectType: 'section',
          objectId: r.section_id,
          action: addedKeys.has(`${r.section_id}:${r.user_id}`) ? 'member.add' : 'member.update',
          after: { userId: r.user_id, role: r.role, source: 'roster', sourcedId: r.sourced_id },
        })),
      );
      forgetAccounts(rows.map((r) => r.user_id));
    });
    await progress(part.length);
  }
  for (const part of chunks(set.ends, 500)) {
    await db.transaction(async (tx) => {
      // A membership another of the campus's enrolments still gives stays (a student enrolled
      // again in the same class, under a new sourcedId).
      const given = await stillGiven(tx, orgId, part);
      await endMemberships(tx, input.actor, {
        memberIds: part.map((e) => e.known!.localId).filter((id) => !given.has(id)),
        at: now,
        source: 'roster',
      });
      await writeRecords(
        tx,
        orgId,
        'enrollment',
        { changes: [], ends: part },
        {
          localIdOf: () => 0,
          at: now,
        },
      );
    });
    await progress(part.filter((e) => e.line > 0).length);
  }
}

/**
 * The members among these ending enrolments' that another live roster enrolment gives. Arrays,
 * not `in (select …)`: planned as a semi-join, the JSON set was read again for every roster
 * record of the campus (3.5 s of a 1,000-row delta at 50,000 enrolments; 80 ms as arrays).
 */
async function stillGiven(
  tx: Queryable,
  orgId: number,
  ends: readonly Change<EnrollmentValues>[],
): Promise<Set<number>> {
  const rows = rowsOf<{ local_id: number }>(
    await tx.execute(sql`select distinct local_id from roster_records
      where org_id = ${orgId} and kind = 'enrollment' and ended_at is null
        and local_id = any(array${idSet(ends.map((e) => e.known!.localId))})
        and sourced_id <> all(array${textSet(ends.map((e) => e.sourcedId))})`),
  );
  return new Set(rows.map((r) => r.local_id));
}

/** The time zone of the organisation's latest section, else the one a new section takes. */
async function campusTimeZone(db: Queryable, orgId: number): Promise<string> {
  const rows = rowsOf<{ time_zone: string }>(
    await db.execute(sql`select s.time_zone from course_sections s join courses c on c.id = s.course_id
      where c.org_id = ${orgId} order by s.id desc limit 1`),
  );
  return rows[0]?.time_zone ?? DEFAULT_SECTION_TIME_ZONE;
}

async function endUsersEnrollments(db: Queryable, input: ApplyInput, userIds: number[]) {
  if (userIds.length === 0) return;
  const prefix = scopedRosterId(input.orgId, '');
  await db.transaction(async (tx) => {
    const members = await tx
      .select({ id: sectionMembers.id, rs: sectionMembers.rsCoursememberId })
      .from(sectionMembers)
      .where(
        and(
          inArray(sectionMembers.userId, userIds),
          sql`starts_with(${sectionMembers.rsCoursememberId}, ${prefix})`,
        ),
      );
    await endMemberships(tx, input.actor, {
      memberIds: members.map((m) => m.id),
      at: input.now,
      source: 'roster',
    });
    for (const part of chunks(members.map((m) => m.rs.slice(prefix.length)))) {
      await tx
        .update(rosterRecords)
        .set({ endedAt: input.now })
        .where(
          and(
            eq(rosterRecords.orgId, input.orgId),
            eq(rosterRecords.kind, 'enrollment'),
            inArray(rosterRecords.sourcedId, part),
          ),
        );
    }
  });
}
