/**
 * The overview's answer time (issue 29): 100,000 accounts and 24 months of history on PostgreSQL
 * (DATABASE_URL or TEST_DATABASE_URL; a scratch database made for it and dropped after), seeded in
 * bulk SQL: a payment per account per paying month with its period's quote, refunds, chargebacks,
 * and the MRR history with its movements (docs/decisions/042), the overview's rollups written by
 * their triggers and merged as the MRR job merges them (docs/decisions/051). Then `getOverview` over
 * the last 12 months, and the revenue by item chart's drill-downs (the accounts behind an item and a
 * group over those months): the best and median of BENCH_INSIGHT_RUNS (5) answers each after one
 * warm-up; target ≤ 300 ms for each median.
 * BENCH_INSIGHT_ACCOUNTS sets the count. Prints PASS/FAIL and exits 1 on a FAIL.
 * BENCH_INSIGHT_DATABASE_URL names a database to keep instead (seeded when it has no accounts,
 * not dropped after), so that a second run, or EXPLAIN, finds the same data.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import { compactRollups } from '../apps/server/src/services/overview/compact-rollups.ts';
import { getOverview } from '../apps/server/src/services/overview/get-overview.ts';
import { listOverviewAccounts } from '../apps/server/src/services/overview/list-overview-accounts.ts';
import { INSIGHT_TIME_ZONE, seedInsightHistory } from './insight-seed.ts';
import { scratchDatabase } from './scratch-database.ts';

const ACCOUNTS = Number(process.env.BENCH_INSIGHT_ACCOUNTS ?? 100_000);
const RUNS = Number(process.env.BENCH_INSIGHT_RUNS ?? 5);
const TARGET_MS = 300;
const NOW = new Date('2026-11-20T15:00:00Z');
const TIME_ZONE = INSIGHT_TIME_ZONE;

const adminUrl = process.env.DATABASE_URL ?? process.env.TEST_DATABASE_URL;
if (!adminUrl) {
  console.error('bench:insight needs DATABASE_URL or TEST_DATABASE_URL (PostgreSQL).');
  process.exit(2);
}

const kept = process.env.BENCH_INSIGHT_DATABASE_URL;
const scratch = kept ? { url: kept, drop: async () => {} } : await scratchDatabase(adminUrl);
const handle = await openDatabase({ databaseUrl: scratch.url });
const { db } = handle;
let failed = false;
try {
  const seedStart = performance.now();
  const [{ seeded } = { seeded: false }] = (
    (await db.execute(sql`select exists (select from users) as seeded`)) as unknown as {
      rows: { seeded: boolean }[];
    }
  ).rows;
  if (!seeded) await seedInsightHistory(db, ACCOUNTS);
  // As the MRR job does every five minutes: the rollups' rows merged (docs/decisions/051).
  await compactRollups(db);
  await db.execute(sql`vacuum analyze revenue_rollup, mrr_rollup, account_item_totals`);
  const counts = (await db.execute(sql`
    select (select count(*) from users)::int as accounts, (select count(*) from payments)::int
      as payments, (select count(*) from account_mrr_history)::int as history,
      (select count(*) from revenue_rollup)::int as "revenueRollup",
      (select count(*) from mrr_rollup)::int as "mrrRollup",
      (select count(*) from account_item_totals)::int as "itemTotals"`)) as unknown as {
    rows: Record<string, number>[];
  };
  console.log(
    `${seeded ? 'found' : 'seeded'} ${JSON.stringify(counts.rows[0])} in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`,
  );

  const period = { from: '2025-12', to: '2026-11', timeZone: TIME_ZONE, now: NOW };
  /** Best and median of RUNS timings after one warm-up. */
  const timed = async (what: () => Promise<unknown>) => {
    await what();
    const times: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const start = performance.now();
      await what();
      times.push(performance.now() - start);
    }
    times.sort((a, b) => a - b);
    return { best: times[0]!, median: times[Math.floor(times.length / 2)]! };
  };
  const answer = await getOverview(db, period);
  // The seed's last month is the benchmark's own, to its 20th.
  const [lastMonth, lastButOne] = [answer.months.at(-1)!, answer.months.at(-2)!];
  console.log(
    `MRR now ${answer.now.mrrCents / 100} USD; revenue ${lastButOne.month} ${lastButOne.revenue.revenueCents / 100} USD, ${lastMonth.month} (to the 20th) ${lastMonth.revenue.revenueCents / 100} USD`,
  );
  const report = (what: string, time: { best: number; median: number }) => {
    const over = time.median > TARGET_MS;
    failed ||= over;
    console.log(
      `${what}: median ${time.median.toFixed(0)} ms, best ${time.best.toFixed(0)} ms of ${RUNS} (target ≤ ${TARGET_MS} ms) ${over ? 'FAIL' : 'PASS'}`,
    );
  };
  report(
    `overview of 12 months over ${ACCOUNTS} accounts`,
    await timed(() => getOverview(db, period)),
  );
  // The drill-downs of the revenue by item chart: the accounts behind an item's bar and a group's,
  // over the same 12 months.
  for (const detail of ['NADA', 'Market Reports']) {
    const drill = { figure: 'item' as const, month: period.from, to: period.to, detail };
    const listed = await listOverviewAccounts(db, { ...drill, timeZone: TIME_ZONE, now: NOW });
    report(
      `accounts behind ${detail} over 12 months (${listed.total})`,
      await timed(() => listOverviewAccounts(db, { ...drill, timeZone: TIME_ZONE, now: NOW })),
    );
  }
} finally {
  await handle.close();
  await scratch.drop();
}
process.exit(failed ? 1 : 0);
