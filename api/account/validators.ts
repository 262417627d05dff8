import { z } from 'zod';

const language = z.string().max(20);

/**
 * POST /api/account/user/me/change-language. Spec 2 §7 sends a plain `{language}` body; a
 * JSON:API document is accepted too, of type 'Language' (the type this call answers with).
 * None of our own pages sends a document, so nothing older needs 'User'. A document of any
 * other type is a 400 with the translated message, like every validator's refusal here.
 */
export const changeLanguageBody = z.union([
  z.object({ language }).strict(),
  z
    .object({
      data: z
        .object({
          type: z.literal('Language'),
          id: z.string().max(20).optional(),
          attributes: z.object({ language }).strict(),
        })
        .strict(),
    })
    .strict(),
]);
export type ChangeLanguageBody = z.infer<typeof changeLanguageBody>;
