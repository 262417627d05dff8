import { z } from 'zod';

// Where physical and print items are posted (issue 4, Checkout). US and Canadian addresses:
// the store sells in USD to both.

const POSTAL: Record<'US' | 'CA', RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/,
};

const line = (max: number) => z.string().trim().min(1).max(max);

export const shippingAddressSchema = z
  .object({
    name: line(100),
    line1: line(200),
    line2: z.string().trim().max(200).default(''),
    city: line(100),
    region: line(100),
    postalCode: line(12),
    country: z.enum(['US', 'CA']),
  })
  .refine((address) => POSTAL[address.country].test(address.postalCode), {
    path: ['postalCode'],
  });

export type ShippingAddress = z.infer<typeof shippingAddressSchema>;

/** The address from a form, or the names of the fields that need fixing. */
export function parseShippingAddress(
  input: Record<string, unknown>,
): { ok: true; address: ShippingAddress } | { ok: false; fields: string[] } {
  const parsed = shippingAddressSchema.safeParse(input);
  if (parsed.success) return { ok: true, address: parsed.data };
  return { ok: false, fields: [...new Set(parsed.error.issues.map((i) => String(i.path[0])))] };
}
