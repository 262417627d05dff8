/**
 * Whether a failed write broke a unique index (PostgreSQL 23505), as the driver or drizzle
 * reports it (the code on the error or on its cause): two requests racing for one address or
 * one organisation's campus, which the index decides.
 */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } } | null;
  return (e?.code ?? e?.cause?.code) === '23505';
}
