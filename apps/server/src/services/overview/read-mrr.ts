import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { sqlRows } from './sql-rows.ts';

/** The rollup's grain (docs/decisions/051): every time zone's midnight falls on one. */
const QUARTER_HOUR_MS = 15 * 60 * 1000;

/** The quarter hour (UTC) an instant falls in, as the migration's `mrr_events` buckets it. */
export function quarterHourOf(at: Date): Date {
  return new Date(Math.floor(at.getTime() / QUARTER_HOUR_MS) * QUARTER_HOUR_MS);
}

/**
 * MRR at each of `instants` and MRR now (R18; docs/decisions/042 and 051), from `mrr_rollup`:
 * MRR at an instant is what the history's rows opened before it and had not closed before it add
 * up to (`valid_from < at <= valid_to`), so it is the sum of the rollup's quarter hours before the
 * instant's own, plus the rows that open or close inside its own quarter hour before it (none at a
 * month's end in any time zone). MRR now, the rows still open, is the sum of every quarter hour.
 */
export async function readMrr(
  db: Database,
  instants: readonly Date[],
): Promise<{ atInstants: number[]; openCents: number }> {
  const starts = instants.map(quarterHourOf);
  const thresholds = [...new Set(starts.map((start) => start.getTime()))].sort((a, b) => a - b);
  const partial = instants
    .map((at, index) => ({ at, start: starts[index]!, index }))
    .filter(({ at, start }) => at.getTime() > start.getTime());
  const [buckets, insideQuarterHour] = await Promise.all([
    // width_bucket: how many thresholds are at or before the row's quarter hour; a row counts for
    // every threshold after it.
    sqlRows<{ bucket: number; cents: number }>(
      db,
      sql`select width_bucket(at, ${sql.param(thresholds.map((ms) => new Date(ms).toISOString()))}::timestamptz[]) as bucket,
          sum(cents)::bigint as cents
        from mrr_rollup group by 1`,
    ),
    partial.length === 0
      ? Promise.resolve([])
      : sqlRows<{ slot: number; cents: number }>(
          db,
          sql`select m.slot, coalesce(sum(
              case when h.valid_from >= m.quarter and h.valid_from < m.instant
                then h.mrr_cents else 0 end
              - case when h.valid_to is not null
                  and greatest(h.valid_from, h.valid_to) >= m.quarter
                  and greatest(h.valid_from, h.valid_to) < m.instant
                then h.mrr_cents else 0 end), 0)::bigint as cents
            from unnest(${sql.param(partial.map((item) => item.index))}::int[],
                ${sql.param(partial.map((item) => item.start.toISOString()))}::timestamptz[],
                ${sql.param(partial.map((item) => item.at.toISOString()))}::timestamptz[])
              as m(slot, quarter, instant)
            join account_mrr_history h
              on (h.valid_from >= m.quarter and h.valid_from < m.instant)
              or (h.valid_to >= m.quarter and h.valid_to < m.instant)
            group by m.slot`,
        ),
  ]);
  const perBucket = new Map(buckets.map((row) => [Number(row.bucket), Number(row.cents)]));
  const openCents = [...perBucket.values()].reduce((sum, cents) => sum + cents, 0);
  // before[j]: the rows of the quarter hours before thresholds[j].
  const before: number[] = [];
  let running = 0;
  for (let j = 0; j < thresholds.length; j++) {
    running += perBucket.get(j) ?? 0;
    before.push(running);
  }
  const inside = new Map(insideQuarterHour.map((row) => [Number(row.slot), Number(row.cents)]));
  const atInstants = starts.map(
    (start, index) => before[thresholds.indexOf(start.getTime())]! + (inside.get(index) ?? 0),
  );
  return { atInstants, openCents };
}
