import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, queryRows } from '#db/client.ts';
import { users } from '#db/schema/accounts.ts';
import {
  academicTerms,
  courseSections,
  courses,
  optChanges,
  sectionMembers,
} from '#db/schema/courses.ts';
import { organizations } from '#db/schema/sites.ts';
import type { SessionUser } from '#domain/accounts/types.ts';
import { endMembership } from '#domain/courses/membership.ts';
import { systemActor } from '#domain/operations/audit.ts';
import { campusInsights, termDashboard } from '#domain/operations/dashboard/service.ts';
import { orgScopeOf } from '#domain/operations/staff-scope.ts';
import { NotFound } from '#domain/shared/errors.ts';
import { openTestDatabase, testContext, unique } from '#tests/database.ts';

// Issue 39, the term at a glance: the dashboard's figures equal what the members and opting
// events behind them say, computed here again in plain SQL and JS; and a campus's staff see
// their own campus's term only.
let database: DatabaseHandle;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database?.close();
});

const now = new Date('2026-09-10T16:00:00Z');
const ahead = new Date('2026-09-16T03:59:00Z');
const passed = new Date('2026-09-05T03:59:00Z');

function staff(orgId: number, roles: string[], timeZone = 'America/New_York'): SessionUser {
  return {
    id: 1,
    email: 'staff@example.test',
    firstName: 'Staff',
    lastName: 'Member',
    languageCode: null,
    timeZone,
    mustAcceptEula: false,
    emailVerified: true,
    orgId,
    org: null,
    roles,
    isImpersonating: false,
    flags: {} as SessionUser['flags'],
  };
}

async function org() {
  const [row] = await database.db
    .insert(organizations)
    .values({ title: unique('Campus') })
    .returning({ id: organizations.id });
  return row!.id;
}

async function term(
  orgId: number,
  title = 'Fall 2026',
  startDate = '2026-08-24',
  endDate = '2026-12-18',
) {
  const [row] = await database.db
    .insert(academicTerms)
    .values({ orgId, title, startDate, endDate })
    .returning({ id: academicTerms.id });
  return row!.id;
}

async function section(
  orgId: number,
  termId: number,
  s: {
    department: string;
    courseType?: string;
    fee: number | null;
    deadline: Date;
    optingMethod?: string;
    endedAt?: Date;
  },
) {
  const [course] = await database.db
    .insert(courses)
    .values({
      orgId,
      name: `${s.department} course`,
      department: s.department,
      number: '101',
      courseType: s.courseType ?? 'inclusive_access',
    })
    .returning({ id: courses.id });
  const [row] = await database.db
    .insert(courseSections)
    .values({
      courseId: course!.id,
      name: `${s.department} 101`,
      number: '001',
      rsCourseId: unique('RS'),
      startDate: '2026-08-25',
      endDate: '2026-12-15',
      addDropAt: s.deadline,
      courseFeeCents: s.fee,
      termId,
      optingMethod: s.optingMethod ?? 'opt-out',
      endedAt: s.endedAt ?? null,
    })
    .returning({ id: courseSections.id });
  return row!.id;
}

type Member = {
  role?: string;
  optStatus?: 'opted_in' | 'opted_out';
  canUpdate?: boolean;
  deadline: Date;
  /** Opt changes: by the student themself, or by staff for them. */
  changes?: { by: 'self' | 'staff'; to: 'opted_in' | 'opted_out'; at: string }[];
};

async function members(sectionId: number, list: Member[], staffId: number) {
  for (const m of list) {
    const [user] = await database.db
      .insert(users)
      .values({ email: `${unique('s')}@example.test` })
      .returning({ id: users.id });
    const [member] = await database.db
      .insert(sectionMembers)
      .values({
        sectionId,
        userId: user!.id,
        role: m.role ?? 'student',
        optStatus: m.optStatus ?? 'opted_in',
        canUpdateOptStatus: m.canUpdate ?? true,
        addDropDate: m.deadline,
        rsCoursememberId: unique('EN'),
      })
      .returning({ id: sectionMembers.id });
    for (const change of m.changes ?? []) {
      await database.db.insert(optChanges).values({
        memberId: member!.id,
        actorUserId: change.by === 'self' ? user!.id : staffId,
        fromStatus: change.to === 'opted_in' ? 'opted_out' : 'opted_in',
        toStatus: change.to,
        changedAt: new Date(change.at),
      });
    }
  }
}

const repeat = (n: number, m: Member): Member[] => Array.from({ length: n }, () => m);

describe('the term dashboard (issue 39)', () => {
  let riverbend: number;
  let lakeshore: number;
  let fall: number;
  let bio: number;
  let chem: number;
  let hist: number;

  beforeAll(async () => {
    riverbend = await org();
    lakeshore = await org();
    fall = await term(riverbend);
    const [admin] = await database.db
      .insert(users)
      .values({ email: `${unique('admin')}@example.test` })
      .returning({ id: users.id });
    const staffId = admin!.id;
    bio = await section(riverbend, fall, { department: 'BIO', fee: 7900, deadline: ahead });
    chem = await section(riverbend, fall, {
      department: 'CHEM',
      courseType: 'cds',
      fee: 5000,
      deadline: passed,
    });
    hist = await section(riverbend, fall, {
      department: 'HIST',
      fee: null,
      deadline: ahead,
      optingMethod: 'no-opt',
    });
    const ended = await section(riverbend, fall, {
      department: 'BIO',
      fee: 100,
      deadline: ahead,
      endedAt: new Date('2026-09-01T00:00:00Z'),
    });
    const otherTerm = await section(
      riverbend,
      await term(riverbend, 'Spring 2027', '2027-01-11', '2027-05-07'),
      {
        department: 'BIO',
        fee: 100,
        deadline: ahead,
      },
    );
    const elsewhere = await section(lakeshore, await term(lakeshore), {
      department: 'BIO',
      fee: 100,
      deadline: ahead,
    });
    await members(
      bio,
      [
        ...repeat(4, { deadline: ahead }),
        // Opted out and back in by themself: decided.
        {
          deadline: ahead,
          changes: [
            { by: 'self', to: 'opted_out', at: '2026-09-01T15:00:00Z' },
            { by: 'self', to: 'opted_in', at: '2026-09-03T15:00:00Z' },
          ],
        },
        ...repeat(2, {
          deadline: ahead,
          optStatus: 'opted_out',
          changes: [{ by: 'self', to: 'opted_out', at: '2026-09-02T02:00:00Z' }],
        }),
        // Staff opted them out and back in: still not their decision.
        {
          deadline: ahead,
          changes: [
            { by: 'staff', to: 'opted_out', at: '2026-09-02T15:00:00Z' },
            { by: 'staff', to: 'opted_in', at: '2026-09-02T16:00:00Z' },
          ],
        },
        { deadline: ahead, canUpdate: false },
        { deadline: ahead, role: 'professor' },
        { deadline: ahead, role: 'teaching_assistant' },
      ],
      staffId,
    );
    await members(
      chem,
      [
        ...repeat(3, { deadline: passed }),
        {
          deadline: passed,
          optStatus: 'opted_out',
          changes: [{ by: 'self', to: 'opted_out', at: '2026-09-04T12:00:00Z' }],
        },
      ],
      staffId,
    );
    await members(hist, repeat(2, { deadline: ahead }), staffId);
    for (const id of [ended, otherTerm, elsewhere]) {
      await members(
        id,
        [
          { deadline: ahead },
          {
            deadline: ahead,
            optStatus: 'opted_out',
            changes: [{ by: 'self', to: 'opted_out', at: '2026-09-02T12:00:00Z' }],
          },
        ],
        staffId,
      );
    }
  });

  /** The same figures, computed again from the tables with plain SQL and JS. */
  async function independently(sectionIds: number[]) {
    const rows = await queryRows<{
      section_id: number;
      opt_status: string;
      can_update_opt_status: boolean;
      add_drop_date: string | Date;
      opting_method: string;
      disable_auto_provisioning: boolean;
      course_fee_cents: number | null;
      own_changes: number;
    }>(
      database.db,
      sql`select m.section_id, m.opt_status, m.can_update_opt_status, m.add_drop_date,
            s.opting_method, s.disable_auto_provisioning, s.course_fee_cents,
            (select count(*) from opt_changes oc
              where oc.member_id = m.id and oc.actor_user_id = m.user_id)::int as own_changes
          from section_members m join course_sections s on s.id = m.section_id
          where m.role = 'student' and m.section_id in (${sql.join(
            sectionIds.map((id) => sql`${id}`),
            sql`, `,
          )})`,
    );
    const figures = new Map<number, Record<string, number>>();
    for (const id of sectionIds) {
      figures.set(id, { students: 0, optedIn: 0, optedOut: 0, undecided: 0, billing: 0 });
    }
    for (const r of rows) {
      const f = figures.get(r.section_id)!;
      f.students! += 1;
      const open = new Date(r.add_drop_date).getTime() > now.getTime();
      if (r.opt_status === 'opted_out') f.optedOut! += 1;
      else if (
        open &&
        r.opting_method === 'opt-out' &&
        !r.disable_auto_provisioning &&
        r.can_update_opt_status &&
        Number(r.own_changes) === 0
      )
        f.undecided! += 1;
      else f.optedIn! += 1;
      if (r.opt_status === 'opted_in') f.billing! += r.course_fee_cents ?? 0;
    }
    return figures;
  }

  it('equals the figures the members and opting events say, section by section and in total', async () => {
    const ctx = testContext(database.db, { user: staff(riverbend, ['bookstore_manager']), now });
    const view = await termDashboard(ctx, orgScopeOf(ctx.user!), {
      orgId: null,
      termId: null,
      department: null,
      courseType: null,
    });
    expect(view.org?.id).toBe(riverbend);
    expect(view.orgs.map((o) => o.id)).toEqual([riverbend]);
    expect(view.term?.id).toBe(fall);
    expect(view.terms.map((t) => t.title)).toEqual(['Spring 2027', 'Fall 2026']);
    // The ended section and the other term's are not in it.
    expect(view.rows.map((r) => r.section.id)).toEqual([bio, chem, hist]);
    const expected = await independently([bio, chem, hist]);
    for (const row of view.rows) {
      const f = expected.get(row.section.id)!;
      expect(row).toMatchObject({
        students: f.students,
        optedIn: f.optedIn,
        optedOut: f.optedOut,
        undecided: f.undecided,
        expectedBillingCents: f.billing,
      });
    }
    // What the independent count found, written out, so that both cannot be wrong together.
    expect(view.rows.map((r) => [r.students, r.optedIn, r.optedOut, r.undecided])).toEqual([
      [9, 2, 2, 5],
      [4, 3, 1, 0],
      [2, 2, 0, 0],
    ]);
    expect(view.rows.map((r) => r.daysToDeadline)).toEqual([5, null, 5]);
    expect(view.totals).toEqual({
      students: 15,
      optedIn: 7,
      optedOut: 3,
      undecided: 5,
      expectedBillingCents: 7 * 7900 + 3 * 5000,
    });
    expect(view.departments).toEqual(['BIO', 'CHEM', 'HIST']);
  });

  it('charts opt-outs by day in the viewer’s time zone, as the opting events say', async () => {
    const ctx = testContext(database.db, { user: staff(riverbend, ['bookstore_manager']), now });
    const view = await termDashboard(ctx, orgScopeOf(ctx.user!), {
      orgId: riverbend,
      termId: fall,
      department: null,
      courseType: null,
    });
    // 02:00 UTC on 2 September is 1 September in New York.
    expect(view.optOuts).toEqual([
      { day: '2026-09-01', optOuts: 3, optIns: 0, runningTotal: 3 },
      { day: '2026-09-02', optOuts: 1, optIns: 1, runningTotal: 3 },
      { day: '2026-09-03', optOuts: 0, optIns: 1, runningTotal: 2 },
      { day: '2026-09-04', optOuts: 1, optIns: 0, runningTotal: 3 },
    ]);
    const events = await queryRows<{ outs: number; ins: number }>(
      database.db,
      sql`select count(*) filter (where oc.to_status = 'opted_out')::int as outs,
                 count(*) filter (where oc.to_status = 'opted_in')::int as ins
          from opt_changes oc join section_members m on m.id = oc.member_id
          where m.section_id in (${bio}, ${chem}, ${hist})`,
    );
    const last = view.optOuts.at(-1)!;
    expect(last.runningTotal).toBe(Number(events[0]!.outs) - Number(events[0]!.ins));
  });

  it('filters by department and course type', async () => {
    const ctx = testContext(database.db, { user: staff(riverbend, ['bookstore_manager']), now });
    const scope = orgScopeOf(ctx.user!);
    const base = { orgId: null, termId: fall, department: null, courseType: null };
    const byDepartment = await termDashboard(ctx, scope, { ...base, department: 'BIO' });
    expect(byDepartment.rows.map((r) => r.section.id)).toEqual([bio]);
    expect(byDepartment.totals.students).toBe(9);
    expect(byDepartment.optOuts.at(-1)?.runningTotal).toBe(2);
    // The filter's choices stay the whole term's.
    expect(byDepartment.departments).toEqual(['BIO', 'CHEM', 'HIST']);
    const byType = await termDashboard(ctx, scope, { ...base, courseType: 'cds' });
    expect(byType.rows.map((r) => r.section.id)).toEqual([chem]);
    const none = await termDashboard(ctx, scope, { ...base, department: 'NOPE' });
    expect(none.rows).toEqual([]);
    expect(none.totals.students).toBe(0);
  });

  it('filters by the course-fee type Course Manager gives a course (migration 0039)', async () => {
    const ctx = testContext(database.db, { user: staff(riverbend, ['bookstore_manager']), now });
    const scope = orgScopeOf(ctx.user!);
    const winter = await term(riverbend, 'Winter 2027', '2027-01-04', '2027-04-23');
    const fee = await section(riverbend, winter, {
      department: 'NURS',
      courseType: 'course_fee',
      fee: 11000,
      deadline: ahead,
    });
    await section(riverbend, winter, { department: 'BIO', fee: 7900, deadline: ahead });
    const base = { orgId: null, termId: winter, department: null, courseType: null };
    const byType = await termDashboard(ctx, scope, { ...base, courseType: 'course_fee' });
    expect(byType.rows.map((r) => r.section.id)).toEqual([fee]);
  });

  it('Campus Insights groups the same figures by department', async () => {
    const ctx = testContext(database.db, { user: staff(riverbend, ['bookstore_manager']), now });
    const view = await campusInsights(ctx, orgScopeOf(ctx.user!), { orgId: null, termId: fall });
    expect(view.departments.map((d) => [d.department, d.students, d.optedOut])).toEqual([
      ['BIO', 9, 2],
      ['CHEM', 4, 1],
      ['HIST', 2, 0],
    ]);
  });

  it('another campus’s staff see none of it: its organisation or term id is not found', async () => {
    const ctx = testContext(database.db, { user: staff(lakeshore, ['bookstore_manager']), now });
    const scope = orgScopeOf(ctx.user!);
    const own = await termDashboard(ctx, scope, {
      orgId: null,
      termId: null,
      department: null,
      courseType: null,
    });
    expect(own.org?.id).toBe(lakeshore);
    expect(own.orgs.map((o) => o.id)).toEqual([lakeshore]);
    expect(own.rows.map((r) => r.section.id)).not.toContain(bio);
    expect(own.rows).toHaveLength(1);
    await expect(
      termDashboard(ctx, scope, {
        orgId: riverbend,
        termId: null,
        department: null,
        courseType: null,
      }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      termDashboard(ctx, scope, { orgId: null, termId: fall, department: null, courseType: null }),
    ).rejects.toBeInstanceOf(NotFound);
    await expect(
      campusInsights(ctx, scope, { orgId: riverbend, termId: fall }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('a manager chooses any organisation with terms; an unknown one is not found', async () => {
    const ctx = testContext(database.db, { user: staff(lakeshore, ['manager']), now });
    const scope = orgScopeOf(ctx.user!);
    const view = await termDashboard(ctx, scope, {
      orgId: riverbend,
      termId: null,
      department: null,
      courseType: null,
    });
    expect(view.orgs.map((o) => o.id)).toEqual(expect.arrayContaining([riverbend, lakeshore]));
    expect(view.rows.map((r) => r.section.id)).toEqual([bio, chem, hist]);
    await expect(
      termDashboard(ctx, scope, {
        orgId: 2_000_000_000,
        termId: null,
        department: null,
        courseType: null,
      }),
    ).rejects.toBeInstanceOf(NotFound);
  });

  it('a change shows at the next load, within the minute the figures are kept', async () => {
    const ctx = testContext(database.db, { user: staff(riverbend, ['bookstore_manager']), now });
    const scope = orgScopeOf(ctx.user!);
    const query = { orgId: null, termId: fall, department: 'HIST', courseType: null };
    const before = await termDashboard(ctx, scope, query);
    expect(before.totals.students).toBe(2);
    // A member ended by staff: the figures follow at once, not a minute later.
    const [member] = await database.db
      .select({ id: sectionMembers.id })
      .from(sectionMembers)
      .where(sql`${sectionMembers.sectionId} = ${hist} and ${sectionMembers.role} = 'student'`)
      .limit(1);
    await database.db.transaction((tx) =>
      endMembership(tx, systemActor('test'), { memberId: member!.id, at: now, source: 'staff' }),
    );
    const after = await termDashboard(ctx, scope, query);
    expect(after.totals.students).toBe(1);
  });
});
