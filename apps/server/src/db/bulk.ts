import { sql, type AnyColumn, type SQL } from 'drizzle-orm';

/** The column types the billing run's batches use. */
export type BulkType =
  'uuid' | 'text' | 'int' | 'bigint' | 'boolean' | 'date' | 'timestamptz' | 'jsonb' | 'bytea';

/**
 * Many rows as one statement with one parameter per column (`unnest` of arrays), for the billing
 * run's batches: a multi-row VALUES list would carry a parameter per cell, and building and
 * parsing thousands of them costs more than the rows' writes (bench/billing-run.ts).
 *
 * `columns` maps each column name to its PostgreSQL type and how a row gives its value. Dates
 * and timestamps are given as ISO text, JSON as its text (not null). A bytea column (the receipts) travels
 * as one binary parameter holding every row's bytes, cut apart in the statement: in a text
 * array each byte would be written and parsed as two hex digits.
 */
export function unnestRows<Row>(
  rows: readonly Row[],
  columns: Record<string, readonly [pgType: BulkType, pick: (row: Row) => unknown]>,
): { names: SQL; select: SQL } {
  const entries = Object.entries(columns);
  const arrays: SQL[] = [];
  const fields: (SQL | ReturnType<typeof sql.identifier>)[] = [];
  const selected: SQL[] = [];
  for (const [name, [pgType, pick]] of entries) {
    if (pgType === 'jsonb') {
      // A batch's documents repeat (its quotes are a few price combinations): each distinct one
      // is sent and parsed once, and rows point at theirs.
      const distinct = new Map<string, number>();
      const indexes = rows.map((row) => {
        const text = pick(row);
        if (typeof text !== 'string') throw new TypeError(`${name}: JSON text expected`);
        let index = distinct.get(text);
        if (index === undefined) {
          index = distinct.size + 1; // arrays count from 1
          distinct.set(text, index);
        }
        return index;
      });
      const index = `${name}__index`;
      arrays.push(sql`${sql.param(indexes)}::int[]`);
      fields.push(sql.identifier(index));
      selected.push(
        sql`(${sql.param([...distinct.keys()])}::jsonb[])[row_values.${sql.identifier(index)}] as ${sql.identifier(name)}`,
      );
      continue;
    }
    if (pgType !== 'bytea') {
      arrays.push(sql`${sql.param(rows.map(pick))}::${sql.raw(pgType)}[]`);
      fields.push(sql.identifier(name));
      selected.push(sql`row_values.${sql.identifier(name)}`);
      continue;
    }
    const parts = rows.map((row) => {
      const bytes = pick(row);
      if (!(bytes instanceof Uint8Array)) throw new TypeError(`${name}: bytes expected`);
      return bytes;
    });
    const starts: number[] = [];
    let at = 1; // substring() counts from 1
    for (const part of parts) {
      starts.push(at);
      at += part.length;
    }
    const start = `${name}__start`;
    const length = `${name}__length`;
    arrays.push(
      sql`${sql.param(starts)}::int[]`,
      sql`${sql.param(parts.map((part) => part.length))}::int[]`,
    );
    fields.push(sql.identifier(start), sql.identifier(length));
    selected.push(
      sql`substring(${sql.param(Buffer.concat(parts))}::bytea from row_values.${sql.identifier(start)} for row_values.${sql.identifier(length)}) as ${sql.identifier(name)}`,
    );
  }
  const names = sql.join(
    entries.map(([name]) => sql.identifier(name)),
    sql`, `,
  );
  return {
    names,
    select: sql`select ${sql.join(selected, sql`, `)} from unnest(${sql.join(arrays, sql`, `)}) as row_values (${sql.join(fields, sql`, `)})`,
  };
}

/** `column = any($1::type[])`: one parameter for any number of values. */
export function anyOf(column: AnyColumn | SQL, values: readonly unknown[], pgType: BulkType): SQL {
  return sql`${column} = any(${sql.param(values)}::${sql.raw(pgType)}[])`;
}
