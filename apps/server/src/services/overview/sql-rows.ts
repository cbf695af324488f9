import type { SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.ts';

/** A raw statement's rows (both drivers answer `{ rows }`), typed by the caller. */
export async function sqlRows<Row>(db: Database | Transaction, query: SQL): Promise<Row[]> {
  const result = (await db.execute(query)) as unknown as { rows: Row[] };
  return result.rows;
}

/** How many rows a raw statement wrote. */
export async function sqlCount(db: Database | Transaction, query: SQL): Promise<number> {
  const result = (await db.execute(query)) as unknown as {
    rowCount?: number | null;
    affectedRows?: number;
  };
  return result.rowCount ?? result.affectedRows ?? 0;
}
