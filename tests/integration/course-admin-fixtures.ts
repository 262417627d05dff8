import type { DatabaseHandle } from '#db/client.ts';
import { userRoles, users } from '#db/schema/accounts.ts';
import { organizations } from '#db/schema/sites.ts';
import { loadSessionUser } from '#domain/accounts/service.ts';
import { createCourse, createSection, createTerm } from '#domain/courses/course-admin-service.ts';
import type { SectionInput } from '#domain/courses/section-rules.ts';
import type { RequestContext } from '#domain/shared/context.ts';
import { testContext, testWebContext, unique } from '#tests/database.ts';

// Issue 39, Course Manager: what its integration tests build on — a campus, its staff, a term,
// a course and a section made through the services, and a page's loader or action answered.

export type Staff = RequestContext & { user: NonNullable<RequestContext['user']> };

/** What a page's loader or action answered: its status, and the data of a returned answer. */
export type PageAnswer = {
  status: number;
  data?: { errors?: Record<string, string>; values?: Record<string, string> } & Record<
    string,
    unknown
  >;
};

export const sectionInput = (over: Partial<SectionInput> = {}): SectionInput => ({
  name: 'Principles of Biology',
  number: '001',
  termId: '',
  startDate: '2026-08-24',
  endDate: '2026-12-15',
  timeZone: 'America/Toronto',
  optOutDate: '2026-09-08',
  optOutTime: '23:59',
  dropDate: '',
  dropTime: '',
  optingMethod: 'opt-out',
  fee: '79.00',
  sectionCode: '',
  ...over,
});

/** The builders, on the test database as it is once opened, at this request clock. */
export function courseAdminFixtures(database: () => DatabaseHandle, now: Date) {
  async function org() {
    const [row] = await database()
      .db.insert(organizations)
      .values({ title: unique('Campus') })
      .returning({ id: organizations.id });
    return row!.id;
  }

  async function person(
    input: { orgId?: number | null; roles?: string[]; email?: string } = {},
  ): Promise<Staff> {
    const { db } = database();
    const [row] = await db
      .insert(users)
      .values({
        email: input.email ?? `${unique('staff')}@example.test`,
        firstName: 'Rosa',
        lastName: 'Diaz',
        orgId: input.orgId ?? null,
      })
      .returning({ id: users.id });
    for (const role of input.roles ?? []) {
      await db.insert(userRoles).values({ userId: row!.id, role });
    }
    const user = (await loadSessionUser(db, { userId: row!.id, impersonatorId: null }))!;
    return { ...testContext(db, { user, now }), user };
  }

  async function campusWithSection() {
    const orgId = await org();
    const staff = await person({ orgId, roles: ['bookstore_manager'] });
    const term = await createTerm(staff, {
      orgId,
      title: 'Fall 2026',
      termType: 'semester',
      startDate: '2026-08-24',
      endDate: '2026-12-20',
    });
    if (!term.ok) throw new Error('term');
    const course = await createCourse(staff, {
      orgId,
      name: 'Principles of Biology',
      department: 'bio',
      number: '101',
      courseType: 'inclusive_access',
    });
    if (!course.ok) throw new Error('course');
    const section = await createSection(
      staff,
      course.id,
      sectionInput({ termId: String(term.id) }),
    );
    if (!section.ok) throw new Error(JSON.stringify(section.errors));
    return { orgId, staff, termId: term.id, courseId: course.id, sectionId: section.id };
  }

  /** What a page's loader or action answers, by status; and the data of a returned answer. */
  async function answer(
    run: (args: never) => Promise<unknown>,
    ctx: Staff,
    path: string,
    params: Record<string, string>,
    fields?: Record<string, string>,
    /** The Course Manager item shows to the person (their account's flag), or not. */
    menu = true,
  ): Promise<PageAnswer> {
    const user = { ...ctx.user, flags: { ...ctx.user.flags, isCourseManagerEnabled: true } };
    const request = new Request(
      `http://127.0.0.1${path}`,
      fields ? { method: 'POST', body: new URLSearchParams(fields) } : {},
    );
    try {
      const out = (await run({
        request,
        params,
        context: testWebContext(database(), { user: menu ? user : ctx.user, now: ctx.now }),
      } as never)) as Response | { data: never; init: { status?: number } | null };
      if (out instanceof Response) return { status: out.status };
      return { status: out.init?.status ?? 200, data: out.data };
    } catch (thrown) {
      if (thrown instanceof Response) return { status: thrown.status };
      return { status: (thrown as { init?: { status?: number } }).init?.status ?? -1 };
    }
  }

  return { org, person, campusWithSection, answer };
}
