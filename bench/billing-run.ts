/**
 * The billing run's throughput (issue 5): subscriptions per second of one `runBilling` over N
 * accounts all due today, each with an approved card at the sandbox gateway (no delay). The
 * accounts are seeded in bulk SQL first, outside the timing. On PGlite (in memory): 1,000 and
 * 10,000 accounts, each the median of three runs in fresh databases after a small warm-up run;
 * target time(10k)/time(1k) ≤ 10.5 (issue 16). With BENCH_DATABASE_URL (PostgreSQL): also
 * 100,000 accounts, the median of BENCH_POSTGRES_RUNS (3) runs, each in a fresh database made for
 * it and dropped after; target ≥ 3,500 subscriptions per second (issue 16). Each run also prints
 * the CPU time the benchmark's own process spent (the run's JavaScript: receipts, on their threads
 * too, and statements), a figure less moved than the wall clock by other work on the machine.
 * Prints PASS/FAIL per target and exits 1 on a FAIL.
 */
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { createSandboxGateway } from '../apps/server/src/sandboxes/payments/sandbox-gateway.ts';
import { openDatabase, type DatabaseHandle } from '../apps/server/src/db/client.ts';
import { createPriceBook } from '../apps/server/src/services/prices/price-book.ts';
import { runBilling } from '../apps/server/src/services/billing/run-billing.ts';
import { defaultReceiptRenderer } from '../apps/server/src/services/receipts/receipt-renderer.ts';

const NOW = new Date('2026-03-15T15:00:00Z'); // 11:00 in New York: business date 2026-03-15
const TODAY = '2026-03-15';
const RATIO_TARGET = 10.5;
const POSTGRES_TARGET = 3500;
const POSTGRES_ACCOUNTS = Number(process.env.BENCH_POSTGRES_ACCOUNTS ?? 100_000);
const POSTGRES_RUNS = Number(process.env.BENCH_POSTGRES_RUNS ?? 3);
/**
 * As the server composes it (plugins/services.ts): receipts rendered on threads, one renderer
 * for the process, whose threads start in the warm-up run as they do at a server's first run.
 */
const RECEIPTS = defaultReceiptRenderer();

/** N accounts due today, each with a sandbox customer and an approved payment profile. */
async function seed(handle: DatabaseHandle, n: number): Promise<void> {
  const { db } = handle;
  const chunk = 20_000;
  for (let from = 1; from <= n; from += chunk) {
    const to = Math.min(n, from + chunk - 1);
    await db.transaction(async (tx) => {
      await tx.execute(sql`
        insert into users (dealerpass_user_id, email, first_name, last_name, dealership, phone,
          address1, city, state, zip, subscriptions, account_status, card_brand, card_last4,
          next_bill_date)
        select 'bench' || i || '@example.com', 'bench' || i || '@example.com', 'Casey', 'Dealer',
          'Casey Motors ' || i, '3135550100', '1 Main St', 'Detroit', 'MI', '48201',
          array['NADA', 'MMR', 'CF', 'AC'], 'active', 'visa', '1111', ${TODAY}::date
        from generate_series(${from}::int, ${to}::int) as i`);
      await tx.execute(sql`
        insert into sandbox_gateway_customers (id, merchant_customer_id, email)
        select 'bench_cus_' || i, 'bench' || i, 'bench' || i || '@example.com'
        from generate_series(${from}::int, ${to}::int) as i`);
      await tx.execute(sql`
        insert into sandbox_gateway_payment_profiles
          (id, customer_id, card_brand, card_last4, card_expiration, behaviour)
        select 'bench_pp_' || i, 'bench_cus_' || i, 'visa', '1111', '1239', 'approved'
        from generate_series(${from}::int, ${to}::int) as i`);
      await tx.execute(sql`
        insert into subscriptions (user_id, codes, cycle_anchor, current_period_start,
          current_period_end, gateway_customer_id, gateway_payment_profile_id)
        select u.id, array['NADA', 'MMR', 'CF', 'AC'], '2025-11-15', '2026-02-15', ${TODAY}::date,
          'bench_cus_' || i, 'bench_pp_' || i
        from generate_series(${from}::int, ${to}::int) as i
        join users u on u.dealerpass_user_id = 'bench' || i || '@example.com'`);
    });
  }
  await handle.db.execute(sql`analyze`);
}

interface Measured {
  n: number;
  ms: number;
  perSecond: number;
  /** CPU time of this process during the run (user + system). */
  cpuMs: number;
}

/** Seeds a fresh database, runs the billing run once, checks everyone was charged exactly once. */
async function measure(handle: DatabaseHandle, n: number): Promise<Measured> {
  await seed(handle, n);
  const db = handle.db;
  const deps = {
    db,
    payments: createSandboxGateway({ db, now: () => NOW, delayMs: 0 }),
    now: () => NOW,
    timeZone: 'America/New_York',
    company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
    mailKind: 'mailbox' as const,
    prices: await createPriceBook(db),
    log: { warn: () => {} },
    receipts: RECEIPTS,
  };
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const result = await runBilling(deps);
  const ms = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  const [check] = (
    (await db.execute(sql`
      select count(*)::int as payments, count(distinct billing_period_id)::int as periods,
        (select count(*)::int from subscriptions where current_period_end = ${TODAY}::date) as left
      from payments`)) as unknown as { rows: { payments: number; periods: number; left: number }[] }
  ).rows;
  if (result.charged !== n || check?.payments !== n || check.periods !== n || check.left !== 0) {
    throw new Error(`expected ${n} charged once each: ${JSON.stringify({ result, check })}`);
  }
  return { n, ms, perSecond: (n / ms) * 1000, cpuMs: (cpu.user + cpu.system) / 1000 };
}

async function onPglite(n: number): Promise<Measured> {
  const handle = await openDatabase({ dataDir: null });
  try {
    return await measure(handle, n);
  } finally {
    await handle.close();
  }
}

async function onPostgres(url: string, n: number): Promise<Measured> {
  const name = `dealerpass_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const target = new URL(url);
    target.pathname = `/${name}`;
    // The database is dropped (with force) as soon as the pool has closed: a connection still
    // shutting down then is told so, which is expected here and not worth a warning.
    let closing = false;
    const handle = await openDatabase({
      databaseUrl: target.toString(),
      onConnectionError: (error) => {
        if (!closing) console.warn(`database connection lost: ${error.message}`);
      },
    });
    try {
      return await measure(handle, n);
    } finally {
      closing = true;
      await handle.close();
    }
  } finally {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  }
}

const line = (label: string, m: Measured) =>
  console.log(
    `${label}: ${m.n} subscriptions in ${(m.ms / 1000).toFixed(2)} s = ${Math.round(m.perSecond)} per second ` +
      `(this process's CPU ${(m.cpuMs / 1000).toFixed(2)} s)`,
  );

let failed = false;
/** The run of median time among `runs` (each in a fresh database): one slow or fast run decides nothing. */
async function medianOf(runs: number, measureOnce: () => Promise<Measured>): Promise<Measured> {
  const results: Measured[] = [];
  for (let i = 0; i < runs; i++) results.push(await measureOnce());
  return results.sort((a, b) => a.ms - b.ms)[Math.floor(runs / 2)]!;
}

if (process.env.BENCH_PGLITE !== '0') {
  await onPglite(200); // warm-up (JIT, module loading), discarded
  const small = await medianOf(3, () => onPglite(1_000));
  line('PGlite (in memory), median of 3', small);
  const large = await medianOf(3, () => onPglite(10_000));
  line('PGlite (in memory), median of 3', large);
  const ratio = large.ms / small.ms;
  console.log(
    `time(10k)/time(1k): ${ratio.toFixed(2)} (target ≤ ${RATIO_TARGET}) ${ratio <= RATIO_TARGET ? 'PASS' : 'FAIL'}`,
  );
  // PGlite runs in this process: its CPU time is the run's work, whatever else the machine does.
  console.log(`CPU(10k)/CPU(1k): ${(large.cpuMs / small.cpuMs).toFixed(2)} (for comparison)`);
  if (ratio > RATIO_TARGET) failed = true;
}

const postgresUrl = process.env.BENCH_DATABASE_URL;
if (postgresUrl) {
  const big = await medianOf(POSTGRES_RUNS, async () => {
    const once = await onPostgres(postgresUrl, POSTGRES_ACCOUNTS);
    line('PostgreSQL, one run', once);
    return once;
  });
  line(`PostgreSQL, median of ${POSTGRES_RUNS}`, big);
  const ok = big.perSecond >= POSTGRES_TARGET;
  console.log(
    `PostgreSQL: ${Math.round(big.perSecond)} subscriptions per second, median of ${POSTGRES_RUNS} (target ≥ ${POSTGRES_TARGET}) ${ok ? 'PASS' : 'FAIL'}`,
  );
  if (!ok) failed = true;
} else {
  console.log(
    `PostgreSQL ${POSTGRES_ACCOUNTS} accounts (target ≥ ${POSTGRES_TARGET} per second): skipped, BENCH_DATABASE_URL is not set`,
  );
}
await RECEIPTS.close();
process.exitCode = failed ? 1 : 0;
