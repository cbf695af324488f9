/**
 * The finance export's speed (issue 29): rows per second of one month's CSV, streamed from
 * PostgreSQL the way the route streams it (`streamFinanceExport` with two readers: the month's
 * halves through two cursors in one read-only snapshot, the CSV through lib/csv.ts), read to the
 * end by a consumer. The history is seeded in bulk SQL first, outside the timing, in a fresh
 * database made for the run and dropped after (finance-seed.ts): BENCH_FINANCE_ACCOUNTS accounts
 * (100,000), each paid every month for 24 months, a tenth of the payments refunded in part and
 * one in fifty charged back. Prints the best and the median of BENCH_FINANCE_RUNS (5) exports of
 * March 2026; target ≥ 50,000 rows per second for the median; PASS/FAIL, exit 1 on a FAIL.
 *
 * PostgreSQL from BENCH_DATABASE_URL (a server where a database may be created), by default the
 * local one the tests use. BENCH_FINANCE_DATABASE_URL names a database to keep instead (seeded
 * when it has no accounts, not dropped after), so that a second run, or EXPLAIN, finds the same
 * data.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import {
  financeRangeOf,
  streamFinanceExport,
} from '../apps/server/src/services/admin/finance/export-finance.ts';
import { FINANCE_BENCH_MONTH, seedFinanceHistory } from './finance-seed.ts';
import { scratchDatabase } from './scratch-database.ts';

const TARGET_ROWS_PER_SECOND = 50_000;
const ACCOUNTS = Number(process.env.BENCH_FINANCE_ACCOUNTS ?? 100_000);
const RUNS = Number(process.env.BENCH_FINANCE_RUNS ?? 5);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TIME_ZONE = 'America/New_York';
/** One export of the month read to its end: its data rows and the seconds it took. */
async function exportOnce(
  db: Awaited<ReturnType<typeof openDatabase>>['db'],
): Promise<{ rows: number; bytes: number; seconds: number }> {
  const range = financeRangeOf({ month: FINANCE_BENCH_MONTH }, TIME_ZONE);
  const started = process.hrtime.bigint();
  const { stream, done } = streamFinanceExport(db, range, { readers: 2 });
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  const rows = await done;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rows, bytes, seconds };
}

const kept = process.env.BENCH_FINANCE_DATABASE_URL;
const scratch = kept ? { url: kept, drop: async () => {} } : await scratchDatabase(ADMIN_URL);
let failed = false;
try {
  const handle = await openDatabase({ databaseUrl: scratch.url });
  try {
    const seeding = Date.now();
    const [{ seeded } = { seeded: false }] = (
      (await handle.db.execute(sql`select exists (select from users) as seeded`)) as unknown as {
        rows: { seeded: boolean }[];
      }
    ).rows;
    if (!seeded) await seedFinanceHistory(handle.db, ACCOUNTS);
    console.log(
      `${seeded ? 'found' : 'seeded'} ${ACCOUNTS} accounts, ${24 * ACCOUNTS} payments over 24 months with refunds and chargebacks in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
    );
    await exportOnce(handle.db); // warm-up: plans, caches, JIT
    const runs: { rows: number; bytes: number; seconds: number }[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await exportOnce(handle.db));
    runs.sort((a, b) => a.seconds - b.seconds);
    const median = runs[Math.floor(runs.length / 2)]!;
    const best = runs[0]!;
    const perSecond = Math.round(median.rows / median.seconds);
    failed = perSecond < TARGET_ROWS_PER_SECOND;
    console.log(
      `finance export, one month of 24: ${median.rows} rows (${(median.bytes / 1e6).toFixed(1)} MB) in ${median.seconds.toFixed(2)} s = ${perSecond} rows per second (median of ${RUNS}; best ${Math.round(best.rows / best.seconds)}; target ≥ ${TARGET_ROWS_PER_SECOND}) ${failed ? 'FAIL' : 'PASS'}`,
    );
  } finally {
    await handle.close();
  }
} finally {
  await scratch.drop();
}
process.exit(failed ? 1 : 0);
