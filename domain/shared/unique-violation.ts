type DriverError = { code?: string; constraint?: string; cause?: DriverError } | null;

/**
 * Whether a failed write broke a unique index (PostgreSQL 23505), as the driver or drizzle
 * reports it (the code on the error or on its cause): two requests racing for one address or
 * one organisation's campus, which the index decides. With `index`, only that one counts.
 */
export function isUniqueViolation(error: unknown, index?: string): boolean {
  const e = error as DriverError;
  const reported = e?.code === undefined ? e?.cause : e;
  if (reported?.code !== '23505') return false;
  return index === undefined || reported.constraint === index;
}
