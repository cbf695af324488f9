import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sqlRows } from './sql-rows.ts';

/**
 * Merges the overview's rollups (docs/decisions/051): the rows of one business date, part and code
 * of `revenue_rollup`, and of one quarter hour of `mrr_rollup`, become one row of their sum (none
 * when it is 0). The triggers write a row per statement that moves money or the MRR history, so
 * without this the rollups would grow with the ledger; with it they hold a row per date and item.
 *
 * A figure is a sum of rows, and each merge is one statement (its delete and its insert commit
 * together), so no reader ever sees a figure change. Rows written while it runs are not in its
 * snapshot and stay as they are; a second merge at the same time (every instance runs the MRR job)
 * waits for the rows the first one deletes and then skips them, so no row is summed twice.
 * Answers how many rows it merged.
 */
export async function compactRollups(db: Database): Promise<number> {
  const [revenue] = await sqlRows<{ merged: number }>(
    db,
    sql`with merged as (
        delete from revenue_rollup r
        using (select business_date, part, code from revenue_rollup
          group by 1, 2, 3 having count(*) > 1) d
        where r.business_date = d.business_date and r.part = d.part and r.code = d.code
        returning r.business_date, r.part, r.code, r.cents),
      kept as (
        insert into revenue_rollup (business_date, part, code, cents)
        select business_date, part, code, sum(cents) from merged
        group by 1, 2, 3 having sum(cents) <> 0)
      select count(*)::int as merged from merged`,
  );
  const [mrr] = await sqlRows<{ merged: number }>(
    db,
    sql`with merged as (
        delete from mrr_rollup r
        using (select at from mrr_rollup group by 1 having count(*) > 1) d
        where r.at = d.at
        returning r.at, r.cents),
      kept as (
        insert into mrr_rollup (at, cents)
        select at, sum(cents) from merged group by 1 having sum(cents) <> 0)
      select count(*)::int as merged from merged`,
  );
  return Number(revenue?.merged ?? 0) + Number(mrr?.merged ?? 0);
}
