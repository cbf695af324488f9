import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type pg from 'pg';
import type { Database } from './client.ts';

export const MIGRATIONS_FOLDER = fileURLToPath(new URL('../../drizzle', import.meta.url));

/**
 * The advisory-lock key every DealerPass instance takes before it migrates (docs/decisions/022):
 * a fixed number, the same in every version, so two instances starting at once migrate one after
 * the other and the second finds nothing left to do. ("DP" and the issue number, nothing more.)
 */
export const MIGRATION_LOCK_KEY = 0x4450_0017;

/**
 * Applies pending migrations to PostgreSQL under a session-level advisory lock held on one
 * dedicated connection (R13): drizzle's migrator creates its schema and table and reads the last
 * applied migration outside its transaction, so two unguarded migrators race (a duplicate schema,
 * or the same migration applied twice). The lock is released when the work ends, or by
 * PostgreSQL when the connection dies.
 */
export async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_FOLDER });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } catch (error) {
    broken = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-way is not handed back to the pool: it may still hold the lock.
    client.release(broken);
  }
}

interface JournalEntry {
  when: number;
  tag: string;
}

let journal: JournalEntry[] | undefined;

/** The migrations this build ships (drizzle's journal), oldest first. */
export function shippedMigrations(): JournalEntry[] {
  journal ??= (
    JSON.parse(readFileSync(`${MIGRATIONS_FOLDER}/meta/_journal.json`, 'utf8')) as {
      entries: JournalEntry[];
    }
  ).entries;
  return journal;
}

/**
 * Whether the database has every migration this build ships (the readiness check): the newest
 * applied migration is at least as new as the newest in the journal, as drizzle's migrator decides.
 */
export async function pendingMigrations(db: Database): Promise<number> {
  const result = (await db.execute(
    sql`select max(created_at) as newest from drizzle.__drizzle_migrations`,
  )) as unknown as { rows: { newest: string | number | null }[] };
  const newest = Number(result.rows[0]?.newest ?? 0);
  return shippedMigrations().filter((entry) => entry.when > newest).length;
}
