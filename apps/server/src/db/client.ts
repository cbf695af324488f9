import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { MIGRATIONS_FOLDER, migratePostgres } from './migrate.ts';
import { attachPgliteRunner, attachPostgresRunner, countStatements } from './prepared.ts';
import { retryTransactions } from './retry-transaction.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
/** The database handle every service receives; the same API whichever engine is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** What `db.transaction(...)` hands to its callback. */
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];

export interface DatabaseHandle {
  db: Database;
  engine: 'pglite' | 'postgres';
  ping(): Promise<void>;
  close(): Promise<void>;
  /**
   * The connection pool's use, read when metrics are scraped (docs/decisions/023); null on
   * PGlite, which is one in-process connection with no pool to run out of.
   */
  poolUse(): { total: number; idle: number; waiting: number; max: number } | null;
}

/** PostgreSQL's type id of bytea. */
const BYTEA = 17;

/**
 * How PGlite carries bytea (the stored PDFs): its defaults write a parameter as hex text one byte
 * at a time in JavaScript and read a result the same way, 7 ms to send a 35 kB receipt and 2.4 ms
 * to read one (decision 066). Bytes are sent as they are, in PostgreSQL's binary format (PGlite
 * sends any byte array so), and read with Node's native hex decoder.
 */
const PGLITE_BYTEA = {
  serializers: {
    // Typed as giving text, but PGlite's bind sends whatever byte array a serializer gives as a
    // binary parameter (its BufferParameter); text stays text.
    [BYTEA]: ((value: unknown) => (value instanceof Uint8Array ? value : String(value))) as (
      value: unknown,
    ) => string,
  },
  parsers: {
    // bytea's text output is '\x' and two hex digits a byte (bytea_output = hex, the default).
    [BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex'),
  },
};

function defaultConnectionError(error: Error): void {
  console.warn(`database connection lost (the pool reconnects on next use): ${error.message}`);
}

/**
 * Opens the database (docs/decisions/002-database.md): PostgreSQL when a URL is given, otherwise
 * PGlite in `dataDir` (or in memory when `dataDir` is null), then applies pending migrations.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir?: string | null;
  /** Where errors of idle pooled connections are reported (PostgreSQL only). */
  onConnectionError?: (error: Error) => void;
  /**
   * An in-memory PGlite started from this dump of an already migrated database (the API tests
   * migrate once per run and clone it, docs/decisions/033); migrations still run, finding none.
   */
  pgliteDump?: Blob;
}): Promise<DatabaseHandle> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    // An idle connection that dies (a database restart, a failover, a terminated backend) is
    // replaced by the pool on next use; unheard, its error would end the whole process.
    pool.on('error', (error) => (options.onConnectionError ?? defaultConnectionError)(error));
    const db = drizzlePg(pool, { schema }) as unknown as Database;
    // A deadlock or serialization failure runs the transaction again (docs/decisions/028).
    retryTransactions(db);
    attachPostgresRunner(db, pool);
    // Under an advisory lock: instances starting together migrate one at a time (R13).
    await migratePostgres(pool);
    return {
      db,
      engine: 'postgres',
      ping: async () => void (await pool.query('select 1')),
      close: () => pool.end(),
      poolUse: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: pool.options.max,
      }),
    };
  }

  let client: PGlite;
  if (options.dataDir) {
    await mkdir(options.dataDir, { recursive: true });
    client = new PGlite(join(options.dataDir, 'pglite'), PGLITE_BYTEA);
  } else {
    client = new PGlite({
      ...PGLITE_BYTEA,
      ...(options.pgliteDump ? { loadDataDir: options.pgliteDump } : {}),
    });
  }
  // The query builder's every call is counted, so the hot path knows when nothing has been written
  // since it last read (db/prepared.ts, docs/decisions/027).
  const count = countStatements(client);
  const db = drizzlePglite(count.client, { schema }) as unknown as Database;
  attachPgliteRunner(db, client, count);
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  return {
    db,
    engine: 'pglite',
    ping: async () => void (await db.execute(sql`select 1`)),
    close: () => client.close(),
    poolUse: () => null,
  };
}
