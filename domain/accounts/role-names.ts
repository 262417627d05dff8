import { eq } from 'drizzle-orm';
import { sectionMembers } from '#db/schema/courses.ts';
import type { RequestContext } from '#domain/shared/context.ts';

// What My Account calls the person (issue 38: roles in words, never a raw key, and an
// instructor is not "Student"). Spec 2 §6: student, instructor (professor, teaching assistant),
// bookstore manager, manager. The store's roles come from the account; teaching and studying
// from the course sections the person is a member of.

export type RoleName =
  | 'role.manager'
  | 'role.bookstoreManager'
  | 'role.support'
  | 'role.instructor'
  | 'role.teachingAssistant'
  | 'role.student';

const ACCOUNT_ROLES: Record<string, RoleName> = {
  manager: 'role.manager',
  bookstore_manager: 'role.bookstoreManager',
  support: 'role.support',
};

const SECTION_ROLES: Record<string, RoleName> = {
  professor: 'role.instructor',
  teaching_assistant: 'role.teachingAssistant',
  student: 'role.student',
};

/**
 * The person's roles as message ids, each once, the store's first: a role this version does
 * not name is left out; someone with none of them is a student (everyone can shop and read).
 */
export function roleNames(input: {
  accountRoles: readonly string[];
  sectionRoles: readonly string[];
}): RoleName[] {
  const names = new Set<RoleName>();
  for (const role of input.accountRoles) {
    const name = ACCOUNT_ROLES[role];
    if (name) names.add(name);
  }
  for (const role of ['professor', 'teaching_assistant', 'student']) {
    if (input.sectionRoles.includes(role)) names.add(SECTION_ROLES[role]!);
  }
  if (names.size === 0) names.add('role.student');
  return [...names];
}

/** The signed-in person's roles, as My Account says them. */
export async function accountRoleNames(ctx: RequestContext): Promise<RoleName[]> {
  const user = ctx.user;
  if (!user) return [];
  const rows = await ctx.db
    .selectDistinct({ role: sectionMembers.role })
    .from(sectionMembers)
    .where(eq(sectionMembers.userId, user.id));
  return roleNames({ accountRoles: user.roles, sectionRoles: rows.map((row) => row.role) });
}
