import { z } from 'zod';
import { COURSE_TYPES } from '#domain/courses/section-rules.ts';
import type { DashboardQuery } from '#domain/operations/dashboard/course-types.ts';
import { parseId } from '#domain/shared/id.ts';

// Issue 39: the term dashboards' filters are a GET form, so the URL is shareable. A malformed
// organisation or term id is ignored (the shared id rule, domain/shared/id.ts: "ignored in a
// query"); a department or course type that no form could send is a 400.
const NO_CONTROL = /^[^\p{Cc}]*$/u;

export const DashboardParams = z.object({
  org: z.string().optional(),
  term: z.string().optional(),
  department: z.string().max(100).regex(NO_CONTROL).optional(),
  courseType: z.union([z.literal(''), z.enum(COURSE_TYPES)]).optional(),
});

/** The query of a dashboard URL, or null when its filters are not ones the form sends. */
export function dashboardQuery(url: URL): DashboardQuery | null {
  const one = (name: string) => {
    const values = url.searchParams.getAll(name);
    return values.length > 1 ? null : values[0];
  };
  const names = ['org', 'term', 'department', 'courseType'] as const;
  if (names.some((name) => one(name) === null)) return null;
  const parsed = DashboardParams.safeParse(
    Object.fromEntries(names.map((name) => [name, one(name)])),
  );
  if (!parsed.success) return null;
  const { org, term, department, courseType } = parsed.data;
  return {
    orgId: parseId(org),
    termId: parseId(term),
    department: department ? department : null,
    courseType: courseType ? courseType : null,
  };
}
