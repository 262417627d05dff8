/** What the rule needs to know of a user: their roles and their own organisation. */
export type SectionManager = { roles: readonly string[]; orgId: number | null };

/**
 * Issue 6 and issue 20: who may use the tools that manage a course section — download its opt
 * status, keep places in it for students' addresses: managers and bookstore managers. Anyone
 * else is forbidden the tool, whatever the section.
 */
export function usesSectionTools(user: SectionManager | null): boolean {
  return !!user && (user.roles.includes('manager') || user.roles.includes('bookstore_manager'));
}

/**
 * Issue 6 and issue 20: who may manage a course section. A manager may manage every section; a
 * bookstore manager the sections of their own organisation only; nobody else, and no anonymous
 * visitor. Issue 39: to someone who uses the tools, a section outside their organisation scope
 * (domain/operations/staff-scope.ts) is not found, exactly as an id that does not exist, so no
 * URL reveals another campus's sections.
 */
export function canManageSection(user: SectionManager | null, sectionOrgId: number): boolean {
  if (!user || !usesSectionTools(user)) return false;
  if (user.roles.includes('manager')) return true;
  return user.orgId === sectionOrgId;
}
