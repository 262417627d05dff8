// Ids in paths and queries are PostgreSQL integers: digits only, no sign or leading zero, at
// most 2147483647. Anything else is not an id (a 404 in a path, ignored in a query).
const ID = /^[1-9]\d{0,9}$/;

export function idParam(raw: string | null | undefined): number | null {
  if (!raw || !ID.test(raw)) return null;
  const id = Number(raw);
  return id <= 2_147_483_647 ? id : null;
}
