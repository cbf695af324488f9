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
  /**
   * Its rows depend on the database's rows alone (no clock, no randomness): on PGlite an answer
   * is used again for the same parameters while no other statement has run (docs/decisions/027).
   */
  reusable?: boolean;
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

/**
 * PGlite runs inside this process and no other process opens its data (decision 002), so every
 * statement that can change a row passes through this process. `countStatements` hands the query
 * builder a client that counts every call into PGlite (a query, an exec, a whole transaction, any
 * other method), once when it starts and once when it ends. The generation is the count.
 *
 * A reusable statement's answer, kept with the generation read before it was asked, is served
 * again only while the generation is unchanged: no statement has started or ended since it was
 * asked, so no write can have happened before, during or after it. Any write, by any request or
 * background job, through any service, retires every kept answer, without knowing which tables
 * it touched. PostgreSQL has other writers (other instances, other tools) and keeps none.
 */
export interface StatementCount {
  client: PGlite;
  generation(): number;
}

export function countStatements(client: PGlite): StatementCount {
  let generation = 0;
  const counted = new Proxy(client, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property, target);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        generation++;
        let result: unknown;
        try {
          result = (value as (...a: unknown[]) => unknown).apply(target, args);
        } catch (error) {
          generation++;
          throw error;
        }
        if (result instanceof Promise) {
          return result.finally(() => {
            generation++;
          });
        }
        generation++;
        return result;
      };
    },
  });
  return { client: counted, generation: () => generation };
}

/** Kept answers at most: past this, all are dropped (a flood of sessions cannot grow it). */
const MAX_KEPT_ANSWERS = 10_000;

export function attachPgliteRunner(db: Database, client: PGlite, count: StatementCount): void {
  // One PREPARE per statement, shared by the calls that arrive while it runs.
  const prepared = new Map<string, Promise<unknown>>();
  const kept = new Map<string, { generation: number; rows: unknown[] }>();
  let keptGeneration = -1;
  runners.set(db, async <Row>(statement: PreparedStatement, values: unknown[]) => {
    if (!values.every((value) => typeof value === 'string' && PLAIN_TOKEN.test(value))) {
      return (await count.client.query<Row>(statement.text, values)).rows;
    }
    // Any other statement is counted like the query builder's: it might write.
    if (!statement.reusable) return execute<Row>(count.client, statement, values);
    const key = `${statement.name}(${values.join(',')})`;
    const asked = count.generation();
    if (keptGeneration !== asked) {
      kept.clear();
      keptGeneration = asked;
    }
    const answer = kept.get(key);
    // Copies: a caller may change its rows.
    if (answer?.generation === asked) {
      return answer.rows.map((row) => ({ ...(row as object) })) as Row[];
    }
    // A reusable statement only reads: it is not counted.
    const rows = await execute<Row>(client, statement, values);
    if (rows.length > 0 && count.generation() === asked) {
      if (kept.size >= MAX_KEPT_ANSWERS) kept.clear();
      kept.set(key, { generation: asked, rows: rows.map((row) => ({ ...(row as object) })) });
    }
    return rows;
  });

  async function execute<Row>(
    via: PGlite,
    statement: PreparedStatement,
    values: unknown[],
  ): Promise<Row[]> {
    let preparing = prepared.get(statement.name);
    if (!preparing) {
      preparing = via.exec(`prepare ${statement.name} as ${statement.text}`);
      prepared.set(statement.name, preparing);
      preparing.catch(() => prepared.delete(statement.name)); // the next call tries again
    }
    await preparing;
    const literals = values.map((value) => `'${value as string}'`).join(', ');
    const [result] = await via.exec(`execute ${statement.name}(${literals})`);
    return (result?.rows ?? []) as Row[];
  }
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
