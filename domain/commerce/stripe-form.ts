// Stripe's API reads application/x-www-form-urlencoded bodies whose nested keys are written
// in brackets: `metadata[order_id]=…`, `automatic_payment_methods[enabled]=true`,
// `expand[0]=…`. The official libraries encode them this way; we have no library.

export type FormValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly FormValue[]
  | { readonly [key: string]: FormValue };

/**
 * Encodes parameters as Stripe reads them. Each key segment is percent-encoded on its own and
 * the brackets between segments are left as they are, so a bracket inside a key cannot open
 * a level. `undefined` and `null` are left out (to clear a field Stripe wants an empty string:
 * pass `''`); an empty array or object sends nothing.
 */
export function encodeForm(params: { readonly [key: string]: FormValue }): string {
  const pairs: string[] = [];
  const add = (path: readonly string[], value: FormValue): void => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) {
      for (const [index, item] of value.entries()) add([...path, String(index)], item);
    } else if (typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) add([...path, key], item);
    } else {
      if (typeof value === 'number' && !Number.isFinite(value)) {
        throw new TypeError(`${path.join('.')} is not a finite number`);
      }
      pairs.push(`${formKey(path)}=${encodeURIComponent(String(value))}`);
    }
  };
  for (const [key, value] of Object.entries(params)) add([key], value);
  return pairs.join('&');
}

function formKey(path: readonly string[]): string {
  const [head, ...rest] = path.map(encodeURIComponent);
  return `${head}${rest.map((segment) => `[${segment}]`).join('')}`;
}
