import { z } from 'zod';

const errorDocument = z.object({ errors: z.array(z.object({ detail: z.string() })).min(1) });

/** The translated detail of a JSON:API error document (spec 2 §8 generic fetch failure). */
export function errorDetail(body: unknown): string | null {
  const parsed = errorDocument.safeParse(body);
  return parsed.success ? parsed.data.errors[0]!.detail : null;
}
