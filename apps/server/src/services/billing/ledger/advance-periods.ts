import { sql } from 'drizzle-orm';
import { unnestRows } from '../../../db/bulk.ts';
import type { Transaction } from '../../../db/client.ts';
import { subscriptions, users } from '../../../db/schema.ts';

export async function advancePeriod(
  tx: Transaction,
  userId: string,
  periodEnd: string,
  periodStart: string,
  now: Date,
) {
  await advancePeriods(tx, [{ userId, periodStart, periodEnd }], now);
}

/** The accounts' next periods after a paid or waived one: two statements for any number. */
export async function advancePeriods(
  tx: Transaction,
  moves: readonly { userId: string; periodStart: string; periodEnd: string }[],
  now: Date,
) {
  if (moves.length === 0) return;
  const moved = unnestRows(moves, {
    user_id: ['uuid', (move) => move.userId],
    period_start: ['date', (move) => move.periodStart],
    period_end: ['date', (move) => move.periodEnd],
  });
  await tx.execute(sql`
    update ${subscriptions} set
      current_period_start = moved.period_start,
      current_period_end = moved.period_end,
      failed_attempts = 0,
      next_retry_at = null,
      updated_at = ${now}
    from (${moved.select}) as moved
    where ${subscriptions.userId} = moved.user_id`);
  await tx.execute(sql`
    update ${users} set next_bill_date = moved.period_end, updated_at = ${now}
    from (${moved.select}) as moved
    where ${users.id} = moved.user_id`);
}
