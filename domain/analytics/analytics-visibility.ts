// Who may see a section's analytics, which name its students (spec 1 §2 'View Section
// Analytics', §6 'Professors and teaching assistants see the analytics button'; issue 19: the
// section's own students are named to its professors and teaching assistants and to nobody
// else). The page, its CSV download and the course page's button all ask this one rule.

/** A role a user holds in one section (spec 1 §3 Section member). */
export type SectionRole = 'professor' | 'teaching_assistant' | 'student';

export const ANALYTICS_ROLES: readonly SectionRole[] = ['professor', 'teaching_assistant'];

export type AnalyticsVisibility =
  | { visible: true }
  | { visible: false; messageKey: 'analytics.error.notTeacher' };

/**
 * Whether a user may see the analytics of a section, students' names included, from the
 * roles they hold in that section (none for a stranger to it). Being a professor of another
 * section, a manager or a bookstore manager gives nothing here: names are not theirs to see.
 */
export function analyticsVisibility(rolesInSection: readonly string[]): AnalyticsVisibility {
  return rolesInSection.some((role) => (ANALYTICS_ROLES as readonly string[]).includes(role))
    ? { visible: true }
    : { visible: false, messageKey: 'analytics.error.notTeacher' };
}
