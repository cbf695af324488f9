import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from './client.ts';

/**
 * A statement of the signed-in request path (docs/decisions/021), sent to the driver as it is:
 * no query builder on every request. On PostgreSQL it is a named (prepared) statement, parsed and
 * planned once per pooled connection. On PGlite (in this process) there is no round trip; the
 * cost is parsing and planning in WebAssembly, and each protocol message handed over: the
 * statement is prepared in SQL once (`PREPARE`) and run as one simple query, `EXECUTE name(…)`,
 * with its parameters inline when they are all plain tokens (else as an extended query). Rows
 * come back as the driver reads them, so the text must alias its columns to the row's property
 * names.
 */
export interface PreparedStatement {
  /** Unique per statement text, an SQL identifier: the database keeps it per connection. */
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

/**
 * A value that is safe as an SQL literal as it is: letters, digits, `_` and `-` only (a session
 * id's hash, a uuid), so no quote, backslash or other character can end or change the literal.
 */
const PLAIN_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

export function attachPgliteRunner(db: Database, client: PGlite): void {
  // One PREPARE per statement, shared by the calls that arrive while it runs.
  const prepared = new Map<string, Promise<unknown>>();
  runners.set(db, async <Row>(statement: PreparedStatement, values: unknown[]) => {
    if (!values.every((value) => typeof value === 'string' && PLAIN_TOKEN.test(value))) {
      return (await client.query<Row>(statement.text, values)).rows;
    }
    let preparing = prepared.get(statement.name);
    if (!preparing) {
      preparing = client.exec(`prepare ${statement.name} as ${statement.text}`);
      prepared.set(statement.name, preparing);
      preparing.catch(() => prepared.delete(statement.name)); // the next call tries again
    }
    await preparing;
    const literals = values.map((value) => `'${value as string}'`).join(', ');
    const [result] = await client.exec(`execute ${statement.name}(${literals})`);
    return (result?.rows ?? []) as Row[];
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
