import { z } from 'zod';
import { idParam, idValue } from '../id-param.ts';

/**
 * POST /api/cart/items (spec 2 §7 Cart, create): the offering and, when bought for a course,
 * the course id. Whether the item is digital, print or both follows from the offering.
 */
export const createCartItemBody = z
  .object({
    data: z
      .object({
        type: z.literal('cart-item'),
        attributes: z
          .object({ offeringId: idValue, courseId: idValue.nullable().optional() })
          .strict(),
      })
      .strict(),
  })
  .strict();
export type CreateCartItemBody = z.infer<typeof createCartItemBody>;

/** The {id} of DELETE /api/cart/items/{id}, as it came in the path. */
export const cartItemId = idParam;
