import { z } from 'zod';

// Accepts both a plain {language} body (spec 2 §7) and a JSON:API document.
export const changeLanguageBody = z.union([
  z.object({ language: z.string().max(20) }).strict(),
  z.object({ data: z.object({ attributes: z.object({ language: z.string().max(20) }) }) }),
]);
export type ChangeLanguageBody = z.infer<typeof changeLanguageBody>;
