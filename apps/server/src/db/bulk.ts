import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** The column types the billing run's batches use. */
export type BulkType =
  'uuid' | 'text' | 'int' | 'bigint' | 'date' | 'timestamptz' | 'jsonb' | 'bytea';

/**
 * Many rows as one statement with one parameter per column (`unnest` of arrays), for the billing
 * run's batches: a multi-row VALUES list would carry a parameter per cell, and building and
 * parsing thousands of them costs more than the rows' writes (bench/billing-run.ts).
 *
 * `columns` maps each column name to its PostgreSQL type and how a row gives its value. Dates
 * and timestamps are given as ISO text, JSON as its text, bytea as Buffers.
 */
export function unnestRows<Row>(
  rows: readonly Row[],
  columns: Record<string, readonly [pgType: BulkType, pick: (row: Row) => unknown]>,
): { names: SQL; select: SQL } {
  const entries = Object.entries(columns);
  const names = sql.join(
    entries.map(([name]) => sql.identifier(name)),
    sql`, `,
  );
  const arrays = sql.join(
    entries.map(([, [pgType, pick]]) => sql`${sql.param(rows.map(pick))}::${sql.raw(pgType)}[]`),
    sql`, `,
  );
  return { names, select: sql`select * from unnest(${arrays}) as row_values (${names})` };
}

/** `column = any($1::type[])`: one parameter for any number of values. */
export function anyOf(column: AnyColumn | SQL, values: readonly unknown[], pgType: BulkType): SQL {
  return sql`${column} = any(${sql.param(values)}::${sql.raw(pgType)}[])`;
}
