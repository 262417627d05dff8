/** What the rule needs to know of a user: their roles and their own organisation. */
export type SectionManager = { roles: readonly string[]; orgId: number | null };

/**
 * Issue 6 and issue 20: who may manage a course section — download its opt status, keep
 * places in it for students' addresses. A manager may manage every section; a bookstore
 * manager the sections of their own organisation only; nobody else, and no anonymous visitor.
 */
export function canManageSection(user: SectionManager | null, sectionOrgId: number): boolean {
  if (!user) return false;
  if (user.roles.includes('manager')) return true;
  return user.roles.includes('bookstore_manager') && user.orgId === sectionOrgId;
}
