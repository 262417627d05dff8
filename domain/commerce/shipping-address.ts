// Where physical and print items are posted (issue 4, Checkout). US and Canadian addresses:
// the store sells in USD to both. Plain checks, no zod: domain/ takes no validation library
// (DESIGN.md, Input); the checkout form's fields are read here, in one place.

export type ShippingAddress = {
  name: string;
  line1: string;
  line2: string;
  city: string;
  region: string;
  postalCode: string;
  country: 'US' | 'CA';
};

const POSTAL: Record<ShippingAddress['country'], RegExp> = {
  US: /^\d{5}(-\d{4})?$/,
  CA: /^[A-Za-z]\d[A-Za-z] ?\d[A-Za-z]\d$/,
};

/** Longest accepted text per field; each is required except line2. */
const MAX: Record<Exclude<keyof ShippingAddress, 'country'>, number> = {
  name: 100,
  line1: 200,
  line2: 200,
  city: 100,
  region: 100,
  postalCode: 12,
};

const FIELDS = ['name', 'line1', 'line2', 'city', 'region', 'postalCode', 'country'] as const;

/** The address from a form, or the names of the fields that need fixing (in form order). */
export function parseShippingAddress(
  input: Record<string, unknown>,
): { ok: true; address: ShippingAddress } | { ok: false; fields: string[] } {
  const text = (field: keyof typeof MAX): string | null => {
    const raw = field === 'line2' && input[field] === undefined ? '' : input[field];
    if (typeof raw !== 'string') return null;
    const value = raw.trim();
    const required = field !== 'line2';
    return (required && value.length === 0) || value.length > MAX[field] ? null : value;
  };
  const country = input.country === 'US' || input.country === 'CA' ? input.country : null;
  const values = {
    name: text('name'),
    line1: text('line1'),
    line2: text('line2'),
    city: text('city'),
    region: text('region'),
    postalCode: text('postalCode'),
    country,
  };
  if (country && values.postalCode !== null && !POSTAL[country].test(values.postalCode)) {
    values.postalCode = null;
  }
  const fields = FIELDS.filter((field) => values[field] === null);
  if (fields.length > 0) return { ok: false, fields };
  return { ok: true, address: values as ShippingAddress };
}

/**
 * Where an order was posted, as a receipt says it (issue 38: a receipt a scholarship office
 * accepts): the name, the street lines, "City, Region Postal code", and the country's code for
 * the page to name in its language. Null when nothing was posted or the stored address is not
 * one (an order placed before addresses were kept whole).
 */
export function shippingAddressLines(
  stored: Record<string, unknown> | null,
): { lines: string[]; country: ShippingAddress['country'] } | null {
  if (!stored) return null;
  const parsed = parseShippingAddress(stored);
  if (!parsed.ok) return null;
  const { name, line1, line2, city, region, postalCode, country } = parsed.address;
  return {
    lines: [name, line1, ...(line2 ? [line2] : []), `${city}, ${region} ${postalCode}`],
    country,
  };
}
