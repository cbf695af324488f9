import { sql } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';

/**
 * A batch's statements find their rows by key (`= any($ids)`, joins on `unnest`). PostgreSQL's
 * default random_page_cost (4, for spinning disks) prices a batch of index lookups above a scan of the
 * whole table, which would make each batch cost as much as the table is large. The run's rows
 * are hot in memory, so its transactions price index lookups as such.
 */
export async function preferIndexLookups(tx: Transaction): Promise<void> {
  await tx.execute(sql`set local random_page_cost = 1.1`);
}
