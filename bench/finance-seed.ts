/**
 * The finance export benchmark's history (bench/finance-export.ts), seeded in bulk SQL: `accounts`
 * accounts, each paid every month for the 24 months from December 2024 to November 2026 (issue
 * 29: "100,000 accounts and 24 months of history"), one in ten payments of every month refunded
 * 20.00 in part three days later and one in fifty charged back two days later. The export reads
 * one month (FINANCE_BENCH_MONTH) of it; the other 23 are there so that every source's filter and
 * every join has a whole history to find the month in. Its own module so that the export's query
 * can be looked at (EXPLAIN) on the same data.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';

/** The month the benchmark exports: one from the middle of the history. */
export const FINANCE_BENCH_MONTH = '2026-03';
const FIRST_MONTH = '2024-12-01';
const MONTHS = 24;

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

/**
 * The accounts, then their 24 months of payments, refunds and chargebacks month by month, in the
 * order a ledger is written (its tables grow in time order, so a month's rows lie together as
 * they would in production).
 */
export async function seedFinanceHistory(db: Database, accounts: number): Promise<void> {
  await db.execute(sql`
    insert into users (id, dealerpass_user_id, email, first_name, last_name, dealership,
      phone, address1, city, state, zip, subscriptions, account_status, card_brand,
      card_last4)
    select md5('fin' || i)::uuid, 'fin' || i, 'fin' || i || '@example.com', 'Casey',
      'Dealer', 'Casey Motors, Lot ' || i, '3135550100', '1 Main St', 'Detroit', 'MI',
      '48201', array['NADA', 'MMR', 'CF'], 'active', 'visa', '1111'
    from generate_series(1, ${accounts}::int) as i`);
  for (let month = 0; month < MONTHS; month += 1) {
    await db.transaction(async (tx) => {
      // A period and its payment per account: on a day of the month by the account's number,
      // at 15:00 UTC, in the order of their days.
      await tx.execute(sql`
        with periods as (
          insert into billing_periods (id, user_id, kind, period_start, period_end,
            amount_cents, quote, status, idempotency_key, created_at, settled_at)
          select md5('fin-period' || i || ':' || ${month}::int)::uuid, md5('fin' || i)::uuid,
            ${month === 0 ? 'signup' : 'renewal'}, d.start, d.start + interval '1 month', 13800,
            ${QUOTE}::jsonb, 'paid', 'fin:' || i || ':' || ${month}::int,
            d.start + interval '15 hours', d.start + interval '15 hours'
          from generate_series(1, ${accounts}::int) as i,
            lateral (select (${FIRST_MONTH}::date + make_interval(months => ${month}::int)
              + make_interval(days => i % 28))::date as start) d
          order by d.start, i
          returning id, user_id, period_start, created_at)
        insert into payments (id, user_id, billing_period_id, amount_cents,
          gateway_transaction_id, card_brand, card_last4, activation_date, receipt_pdf,
          created_at, charged_back_at)
        select id, user_id, id, 13800, 'txn-' || id, 'visa', '1111', period_start, '\\x'::bytea,
          created_at,
          case when abs(hashtext(id::text)) % 50 = 1 then created_at + interval '2 days' end
        from periods order by period_start, id`);
      await tx.execute(sql`
        insert into refunds (payment_id, user_id, amount_cents, status, request_key,
          gateway_refund_id, reason, staff_id, created_at, settled_at)
        select p.id, p.user_id, 2000, 'succeeded', 'fin-refund:' || p.id, 'rf-' || p.id,
          'Bench refund', gen_random_uuid(), p.created_at + interval '3 days',
          p.created_at + interval '3 days'
        from payments p
        where p.activation_date >= ${FIRST_MONTH}::date + make_interval(months => ${month}::int)
          and p.activation_date < ${FIRST_MONTH}::date + make_interval(months => ${month + 1}::int)
          and abs(hashtext(p.id::text)) % 10 = 0
        order by p.created_at`);
    });
  }
  await db.execute(sql`vacuum analyze`);
}
