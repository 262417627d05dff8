// Who made a book, as a publisher's feed names them (issue 15, ONIX code list 17): the byline
// is its authors, else its editors, else everyone named; the product page names the others
// with their role, in the page's language.
export type Contributor = { name: string; role: string };

/** Roles the store words itself; any other reads as a contributor. */
export const CONTRIBUTOR_ROLES = [
  'A01',
  'A02',
  'A12',
  'A13',
  'A15',
  'A19',
  'A23',
  'A24',
  'A29',
  'B01',
  'B06',
  'B09',
  'B11',
  'B13',
] as const;

function bylineRole(contributors: readonly Contributor[]): string | null {
  if (contributors.some((c) => c.role === 'A01')) return 'A01';
  if (contributors.some((c) => c.role === 'B01')) return 'B01';
  return null;
}

/** The byline's names, in the feed's sequence. */
export function bylineOf(contributors: readonly Contributor[]): string {
  const role = bylineRole(contributors);
  return contributors
    .filter((c) => role === null || c.role === role)
    .map((c) => c.name)
    .join(', ');
}

/** Everyone named besides the byline, in sequence. */
export function otherContributors(contributors: readonly Contributor[] | null): Contributor[] {
  const all = contributors ?? [];
  const role = bylineRole(all);
  return role === null ? [] : all.filter((c) => c.role !== role);
}

/** The message of a role ('contributor.role.B06'), or the general one. */
export function roleMessage(role: string): string {
  return (CONTRIBUTOR_ROLES as readonly string[]).includes(role)
    ? `contributor.role.${role}`
    : 'contributor.role.other';
}
