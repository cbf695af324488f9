import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from './client.ts';

/**
 * A statement of the signed-in request path (docs/decisions/021), sent to the driver as it is:
 * no query builder on every request. On PostgreSQL it is a named (prepared) statement, parsed and
 * planned once per pooled connection; on PGlite the text is parsed per call (PGlite runs in
 * this process: there is no round trip to save). Rows come back as the driver reads them, so
 * the text must alias its columns to the row's property names and give dates as text.
 */
export interface PreparedStatement {
  /** Unique per statement text: PostgreSQL keeps a named statement per connection. */
  name: string;
  text: string;
}

type Runner = <Row>(statement: PreparedStatement, values: unknown[]) => Promise<Row[]>;

const runners = new WeakMap<object, Runner>();

/** Called by openDatabase: how this database's driver runs a prepared statement. */
export function attachPostgresRunner(db: Database, pool: pg.Pool): void {
  runners.set(db, async <Row>(statement: PreparedStatement, values: unknown[]) => {
    const result = await pool.query({ name: statement.name, text: statement.text, values });
    return result.rows as Row[];
  });
}

export function attachPgliteRunner(db: Database, client: PGlite): void {
  runners.set(db, async <Row>(statement: PreparedStatement, values: unknown[]) => {
    const result = await client.query<Row>(statement.text, values);
    return result.rows;
  });
}

/** Runs a prepared statement on a database opened by openDatabase (not inside a transaction). */
export function runPrepared<Row>(
  db: Database,
  statement: PreparedStatement,
  values: unknown[],
): Promise<Row[]> {
  const run = runners.get(db);
  if (!run) throw new Error('runPrepared: a database opened by openDatabase is needed');
  return run<Row>(statement, values);
}
