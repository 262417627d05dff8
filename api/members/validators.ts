import { z } from 'zod';
import { parseId } from '#domain/shared/id.ts';

// The member calls of spec 2 §7: Opt out sends attributes selected_reason and message on a
// Member; Opt in sends none. The feedback rules themselves are domain/courses/opt-out-feedback.

// A JSON:API id is a string; it names the member of the path (checked by the route).
const memberId = z.string().refine((id) => parseId(id) !== null);

/** selected_reason: 1-5, as a number or its digit. */
const selectedReason = z.union([
  z.number().int().min(1).max(5),
  z
    .string()
    .regex(/^[1-5]$/)
    .transform(Number),
]);

export const optOutBody = z
  .object({
    data: z
      .object({
        type: z.literal('Member'),
        id: memberId.optional(),
        attributes: z
          .object({
            selected_reason: selectedReason,
            // The field takes 256 characters (spec 1 §5); the domain checks 'Other' needs one.
            message: z.string().max(256).nullable().optional(),
          })
          .strict(),
      })
      .strict(),
  })
  .strict();
export type OptOutBody = z.infer<typeof optOutBody>;

export const optInBody = z
  .object({
    data: z
      .object({
        type: z.literal('Member'),
        id: memberId.optional(),
        attributes: z.object({}).strict().optional(),
      })
      .strict(),
  })
  .strict();
export type OptInBody = z.infer<typeof optInBody>;
