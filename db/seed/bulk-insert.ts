// Multi-row inserts for seed data. Rows travel as ONE json parameter expanded on the server by
// json_to_recordset: a Drizzle `insert().values()` of thousands of rows would hit PostgreSQL's
// 65,535 bind-parameter limit (5,000 products x 38 columns) and spend most of its time building
// the statement, while one text parameter is cheap on both PGlite and node-postgres.
import { sql } from 'drizzle-orm';
import type { Queryable } from '#db/client.ts';

/** A column name (snake_case, as in the database) and its SQL type for json_to_recordset. */
export type ColumnSpec = readonly [name: string, type: string];

export type BulkOptions = {
  /** Insert explicit values into a `generated always as identity` column. */
  overridingSystemValue?: boolean;
};

/**
 * Inserts `rows` (objects keyed by column name) into `table`. A key that is absent becomes
 * NULL, not the column default, so every NOT NULL column must be present in every row.
 */
export async function bulkInsert(
  db: Queryable,
  table: string,
  columns: readonly ColumnSpec[],
  rows: readonly Record<string, unknown>[],
  options: BulkOptions = {},
): Promise<void> {
  if (rows.length === 0) return;
  const names = columns.map(([name]) => name).join(', ');
  const definitions = columns.map(([name, type]) => `${name} ${type}`).join(', ');
  const overriding = options.overridingSystemValue ? ' overriding system value' : '';
  await db.execute(
    sql`insert into ${sql.raw(table)} (${sql.raw(names)})${sql.raw(overriding)}
      select ${sql.raw(names)} from json_to_recordset(${JSON.stringify(rows)}::json)
      as r(${sql.raw(definitions)})`,
  );
}

/** Rows of a select, whichever driver ran it (node-postgres and PGlite both expose `rows`). */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
