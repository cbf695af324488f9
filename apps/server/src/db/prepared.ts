import type { PGlite } from '@electric-sql/pglite';
import type pg from 'pg';
import type { Database } from './client.ts';

/**
 * A statement of the signed-in request path (docs/decisions/021), sent to the driver as it is:
 * no query builder on every request. On PostgreSQL it is a named (prepared) statement, parsed and
 * planned once per pooled connection. On PGlite (in this process) the cost is the number of
 * protocol messages handed to it, not a round trip: a statement whose parameters are all plain
 * tokens goes as one simple query with them inline, anything else as an extended query. Rows
 * come back as the driver reads them, so the text must alias its columns to the row's property
 * names.
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

/**
 * A value that is safe as an SQL literal as it is: letters, digits, `_` and `-` only (a session
 * id's hash, a uuid), so no quote, backslash or other character can end or change the literal.
 */
const PLAIN_TOKEN = /^[A-Za-z0-9_-]{1,128}$/;

/** The statement cut at its `$n` placeholders: text, parameter index, text, … */
const pieces = new WeakMap<PreparedStatement, (string | number)[]>();

function piecesOf(statement: PreparedStatement): (string | number)[] {
  let cut = pieces.get(statement);
  if (!cut) {
    cut = statement.text.split(/\$(\d+)/).map((piece, i) => (i % 2 ? Number(piece) - 1 : piece));
    pieces.set(statement, cut);
  }
  return cut;
}

export function attachPgliteRunner(db: Database, client: PGlite): void {
  runners.set(db, async <Row>(statement: PreparedStatement, values: unknown[]) => {
    if (values.every((value) => typeof value === 'string' && PLAIN_TOKEN.test(value))) {
      const text = piecesOf(statement)
        .map((piece) => (typeof piece === 'number' ? `'${values[piece] as string}'` : piece))
        .join('');
      const [result] = await client.exec(text);
      return (result?.rows ?? []) as Row[];
    }
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
