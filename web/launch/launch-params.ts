import { z } from 'zod';

// The launch calls' query parameters (spec 2 §7 "Courseware launch 2.0", "Launch 1.0
// authorize"): ids are positive integers; user_id, when sent, must be the signed-in user.
const id = z.coerce.number().int().positive().max(2_147_483_647);

export const launchQuery = z.object({
  courseware_id: id.optional(),
  courseware_pricing_id: z.string().min(1).max(200).optional(),
  section_id: id.optional(),
  user_id: id.optional(),
  org_id: id.optional(),
  new_tab: z.string().max(10).optional(),
  format: z.enum(['json', 'html']).optional(),
});

export type LaunchQuery = z.infer<typeof launchQuery>;

/** The query as an object of its last values; null when it does not fit the schema. */
export function parseLaunchQuery(url: URL): LaunchQuery | null {
  const parsed = launchQuery.safeParse(Object.fromEntries(url.searchParams));
  return parsed.success ? parsed.data : null;
}

export function wantsJson(request: Request, query: { format?: string } | null): boolean {
  if (query?.format) return query.format === 'json';
  return (request.headers.get('accept') ?? '').includes('application/json');
}
