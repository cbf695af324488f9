/**
 * The finance export's speed (issue 29): rows per second of one month's CSV, streamed from
 * PostgreSQL the way the route streams it (`streamFinanceExport`: one cursor, a read-only
 * snapshot, the CSV through lib/csv.ts), read to the end by a consumer. The month is seeded in
 * bulk SQL first, outside the timing, in a fresh database made for the run and dropped after:
 * BENCH_FINANCE_ACCOUNTS accounts (100,000), each paid once in the month and once the month
 * before (outside the range, so the filter has work to do), a tenth of the month's payments
 * refunded in part and one in fifty charged back. Prints the median of BENCH_FINANCE_RUNS (3)
 * exports; target ≥ 50,000 rows per second; PASS/FAIL, exit 1 on a FAIL.
 *
 * PostgreSQL from BENCH_DATABASE_URL (a server where a database may be created), by default the
 * local one the tests use.
 */
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/server/src/db/client.ts';
import {
  financeRangeOf,
  streamFinanceExport,
} from '../apps/server/src/services/admin/finance/export-finance.ts';
import { scratchDatabase } from './scratch-database.ts';

const TARGET_ROWS_PER_SECOND = 50_000;
const ACCOUNTS = Number(process.env.BENCH_FINANCE_ACCOUNTS ?? 100_000);
const RUNS = Number(process.env.BENCH_FINANCE_RUNS ?? 3);
const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TIME_ZONE = 'America/New_York';
const QUOTE = JSON.stringify({
  lines: [
    { code: 'NADA', name: 'NADA Guides', cents: 7000, listCents: 7000, free: false },
    { code: 'MMR', name: 'Manheim Market Report', cents: 6500, listCents: 6500, free: false },
    { code: 'CF', name: 'Carfax', cents: 0, listCents: 5500, free: true },
  ],
  subtotalCents: 13500,
  platformFeeCents: 300,
  totalCents: 13800,
});

/** The accounts, their February and March payments, March's refunds and chargebacks. */
async function seed(db: Awaited<ReturnType<typeof openDatabase>>['db']): Promise<void> {
  const chunk = 25_000;
  for (let from = 1; from <= ACCOUNTS; from += chunk) {
    const to = Math.min(ACCOUNTS, from + chunk - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into users (dealerpass_user_id, email, first_name, last_name, dealership, phone,
          address1, city, state, zip, subscriptions, account_status, card_brand, card_last4)
        select 'fin' || i, 'fin' || i || '@example.com', 'Casey', 'Dealer',
          'Casey Motors, Lot ' || i, '3135550100', '1 Main St', 'Detroit', 'MI', '48201',
          array['NADA', 'MMR', 'CF'], 'active', 'visa', '1111'
        from generate_series(${from}::int, ${to}::int) as i`);
      // Two renewal periods per account: one paid in February, one in March (a day of the month
      // by the account's number, at 15:00 UTC).
      await tx.execute(sql`
        insert into billing_periods (user_id, kind, period_start, period_end, amount_cents, quote,
          status, idempotency_key)
        select u.id, 'renewal', d.start, d.start + interval '1 month', 13800, ${QUOTE}::jsonb,
          'paid', 'fin:' || i || ':' || d.start
        from generate_series(${from}::int, ${to}::int) as i
        join users u on u.dealerpass_user_id = 'fin' || i
        cross join lateral (values
          (date '2026-02-01' + (i % 28)),
          (date '2026-03-01' + (i % 31))) as d(start)`);
      await tx.execute(sql`
        insert into payments (user_id, billing_period_id, amount_cents, gateway_transaction_id,
          card_brand, card_last4, activation_date, receipt_pdf, created_at)
        select p.user_id, p.id, p.amount_cents, 'txn-' || p.idempotency_key, 'visa', '1111',
          p.period_start, '\\x'::bytea, p.period_start + interval '15 hours'
        from billing_periods p
        join users u on u.id = p.user_id
        where u.dealerpass_user_id in (
          select 'fin' || i from generate_series(${from}::int, ${to}::int) as i)`);
    });
  }
  // A tenth of March's payments refunded 20.00 three days later; one in fifty charged back.
  await db.execute(sql`
    insert into refunds (payment_id, user_id, amount_cents, status, request_key,
      gateway_refund_id, reason, staff_id, created_at, settled_at)
    select p.id, p.user_id, 2000, 'succeeded', 'fin-refund:' || p.id, 'rf-' || p.id,
      'Bench refund', gen_random_uuid(), p.created_at + interval '3 days',
      p.created_at + interval '3 days'
    from payments p
    where p.activation_date >= date '2026-03-01' and p.activation_date <= date '2026-03-25'
      and abs(hashtext(p.id::text)) % 10 = 0`);
  await db.execute(sql`
    update payments set charged_back_at = created_at + interval '2 days'
    where activation_date >= date '2026-03-01' and activation_date <= date '2026-03-25'
      and abs(hashtext(id::text)) % 50 = 1`);
  await db.execute(sql`analyze`);
}

/** One export of March read to its end: its data rows and the seconds it took. */
async function exportOnce(
  db: Awaited<ReturnType<typeof openDatabase>>['db'],
): Promise<{ rows: number; bytes: number; seconds: number }> {
  const range = financeRangeOf({ month: '2026-03' }, TIME_ZONE);
  const started = process.hrtime.bigint();
  const { stream, done } = streamFinanceExport(db, range);
  let bytes = 0;
  for await (const chunk of stream) bytes += (chunk as Buffer).length;
  const rows = await done;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  return { rows, bytes, seconds };
}

const scratch = await scratchDatabase(ADMIN_URL);
let failed = false;
try {
  const handle = await openDatabase({ databaseUrl: scratch.url });
  try {
    const seeding = Date.now();
    await seed(handle.db);
    console.log(
      `seeded ${ACCOUNTS} accounts, ${2 * ACCOUNTS} payments with refunds and chargebacks in ${((Date.now() - seeding) / 1000).toFixed(1)} s`,
    );
    await exportOnce(handle.db); // warm-up: plans, caches, JIT
    const runs: { rows: number; bytes: number; seconds: number }[] = [];
    for (let run = 0; run < RUNS; run += 1) runs.push(await exportOnce(handle.db));
    runs.sort((a, b) => a.seconds - b.seconds);
    const median = runs[Math.floor(runs.length / 2)]!;
    const perSecond = Math.round(median.rows / median.seconds);
    failed = perSecond < TARGET_ROWS_PER_SECOND;
    console.log(
      `finance export, one month: ${median.rows} rows (${(median.bytes / 1e6).toFixed(1)} MB) in ${median.seconds.toFixed(2)} s = ${perSecond} rows per second (median of ${RUNS}; target ≥ ${TARGET_ROWS_PER_SECOND}) ${failed ? 'FAIL' : 'PASS'}`,
    );
  } finally {
    await handle.close();
  }
} finally {
  await scratch.drop();
}
process.exit(failed ? 1 : 0);
