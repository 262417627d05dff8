// Through what a student can open a material (issue 38: "Instructor analytics count access,
// not only purchases"): the one entitlement rule (domain/access/entitlement.ts) decides whether
// they can, and this names the way, so that "Students with access: 10 of 10" is said with its
// parts — bought, the course fee, an access code, inclusive access, free.
import type { Entitlement } from '#domain/access/entitlement.ts';

export const ACCESS_WAYS = ['purchase', 'courseFee', 'code', 'inclusiveAccess', 'free'] as const;
export type AccessWay = (typeof ACCESS_WAYS)[number];

/** An ownership's source (db/schema/shelf.ts) as a way of access. */
const SOURCE_WAY: Record<string, AccessWay> = {
  purchase: 'purchase',
  code: 'code',
  course_fee: 'courseFee',
  inclusive_access: 'inclusiveAccess',
  free: 'free',
  sample: 'free',
};

/** The order in which one way names a student's access when they have several. */
const FIRST: readonly AccessWay[] = ['purchase', 'code', 'courseFee', 'inclusiveAccess', 'free'];

/**
 * The way a student has access, or null when the rule refuses it. `ownedThrough` are the
 * sources of the student's active ownerships of the material (and 'purchase' for a collection
 * bought that holds it).
 */
export function accessWay(
  decision: Entitlement,
  ownedThrough: readonly string[],
): AccessWay | null {
  if (!decision.ok) return null;
  switch (decision.via) {
    case 'ownership':
    case 'collection': {
      const ways = ownedThrough.map((source) => SOURCE_WAY[source] ?? 'purchase');
      return FIRST.find((way) => ways.includes(way)) ?? 'purchase';
    }
    case 'courseFee':
    case 'cds':
      return 'courseFee';
    case 'courtesy':
      return 'inclusiveAccess';
    default:
      // An instructor's own access is not a student's: the analytics count students only.
      return null;
  }
}

/** How many students have access, and through what, from each student's way (null: none). */
export function accessCounts(ways: readonly (AccessWay | null)[]): {
  total: number;
  byWay: Record<AccessWay, number>;
} {
  const byWay = Object.fromEntries(ACCESS_WAYS.map((way) => [way, 0])) as Record<AccessWay, number>;
  for (const way of ways) if (way) byWay[way] += 1;
  return { total: ways.filter(Boolean).length, byWay };
}
