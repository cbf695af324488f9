/**
 * The overview benchmark's history (bench/insight.ts), seeded in bulk SQL: ACCOUNTS accounts
 * signed up over the 24 months from December 2024 to November 2026 (the benchmark's now, the
 * 20th: every instant falls on the 1st to the 19th of its month, so the last month has its
 * payments up to then), a payment per account per paying month with its
 * period's quote, refunds, chargebacks, and the MRR history with its movements (docs/decisions/042).
 * Its own module so that the queries can be looked at (EXPLAIN) on the same data.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';

export const INSIGHT_TIME_ZONE = 'America/New_York';

export async function seedInsightHistory(db: Database, accounts: number): Promise<void> {
  const ACCOUNTS = accounts;
  const TIME_ZONE = INSIGHT_TIME_ZONE;
  const quote = JSON.stringify({
    lines: [
      { code: 'NADA', name: 'NADA', cents: 7000, listCents: 7000, free: false },
      { code: 'MMR', name: 'MMR', cents: 6500, listCents: 6500, free: false },
    ],
    subtotalCents: 13500,
    platformFeeCents: 300,
    totalCents: 13800,
  });
  const chunk = 10_000;
  for (let from = 1; from <= ACCOUNTS; from += chunk) {
    const to = Math.min(ACCOUNTS, from + chunk - 1);
    await db.transaction(async (tx) => {
      // Account i signs up (i mod 24) months before the end of the 24 and pays monthly; one in
      // ten leaves after six months (a quarter of those by failed dunning, one in twenty by a
      // chargeback), one in forty is refunded 25.00 once.
      await tx.execute(sql`
      insert into users (id, dealerpass_user_id, email, first_name, last_name, dealership, phone,
        address1, city, state, zip, subscriptions, account_status, created_at)
      select md5('insight' || i)::uuid, 'insight' || i, 'insight' || i || '@example.com',
        'Casey', 'Dealer', 'Casey Motors ' || i, '3135550100', '1 Main St', 'Detroit', 'MI',
        '48201', array['NADA','MMR'],
        case when i % 10 = 0 and (i % 24) >= 6 then 'inactive' else 'active' end,
        timestamptz '2024-12-01 15:00Z' + make_interval(months => i % 24, days => i % 19)
      from generate_series(${from}::int, ${to}::int) as i`);
      await tx.execute(sql`
      insert into subscriptions (user_id, codes, cycle_anchor, current_period_start,
        current_period_end)
      select md5('insight' || i)::uuid, array['NADA','MMR'], date '2026-10-01', date '2026-10-01',
        date '2026-12-01'
      from generate_series(${from}::int, ${to}::int) as i`);
      await tx.execute(sql`
      with months as (
        select i, m, (timestamptz '2024-12-01 15:00Z'
          + make_interval(months => i % 24 + m, days => i % 19)) as at
        from generate_series(${from}::int, ${to}::int) as i,
          generate_series(0, 23) as m
        where i % 24 + m < 24 and not (i % 10 = 0 and m >= 6)),
      periods as (
        insert into billing_periods (id, user_id, kind, period_start, period_end, amount_cents,
          quote, status, idempotency_key, created_at, settled_at)
        select md5('period' || i || ':' || m)::uuid, md5('insight' || i)::uuid,
          case when m = 0 then 'signup' else 'renewal' end,
          (at at time zone ${TIME_ZONE})::date, (at at time zone ${TIME_ZONE})::date + 30,
          13800, ${quote}::jsonb, 'paid', 'bench:' || i || ':' || m, at, at
        from months returning id, user_id, period_start, created_at)
      insert into payments (id, user_id, billing_period_id, amount_cents,
        gateway_transaction_id, card_brand, card_last4, activation_date, receipt_pdf,
        created_at, charged_back_at)
      select id, user_id, id, 13800, 'txn-' || id, 'Visa', '1111', period_start, '\\x'::bytea,
        created_at,
        case when (('x' || substr(user_id::text, 1, 8))::bit(32)::int % 20 = 0)
          and period_start >= date '2026-01-01' and period_start < date '2026-01-28'
          then created_at + interval '10 days' end
      from periods`);
      await tx.execute(sql`
      insert into refunds (payment_id, user_id, amount_cents, status, request_key, reason,
        staff_id, created_at, settled_at)
      select p.id, p.user_id, 2500, 'succeeded', 'bench-refund:' || p.id, 'bench',
        gen_random_uuid(), p.created_at + interval '3 days', p.created_at + interval '3 days'
      from payments p
      where p.user_id in (select md5('insight' || i)::uuid
        from generate_series(${from}::int, ${to}::int) as i where i % 40 = 0)
        and p.activation_date between date '2026-03-01' and date '2026-03-31'`);
      // The MRR history: the sign-up row, and for the leavers the churn row six months on.
      await tx.execute(sql`
      insert into account_mrr_history (user_id, valid_from, valid_to, status, complimentary,
        codes, monthly_cents, mrr_cents, movement, cause, reason)
      select md5('insight' || i)::uuid, start,
        case when i % 10 = 0 and (i % 24) >= 6 then start + interval '6 months' end,
        'active', false, array['NADA','MMR'], 13800, 13800, 'new', null, null
      from (select i, timestamptz '2024-12-01 15:00Z'
          + make_interval(months => i % 24, days => i % 19) as start
        from generate_series(${from}::int, ${to}::int) as i) s
      union all
      select md5('insight' || i)::uuid, start + interval '6 months', null, 'inactive', false,
        array['NADA','MMR'], 13800, 0, 'churned',
        case when i % 40 = 0 then 'failedDunning' else 'cancellation' end,
        case when i % 40 = 0 then null else 'too-expensive' end
      from (select i, timestamptz '2024-12-01 15:00Z'
          + make_interval(months => i % 24, days => i % 19) as start
        from generate_series(${from}::int, ${to}::int) as i) s
      where i % 10 = 0 and (i % 24) >= 6`);
    });
  }
  await db.execute(sql`vacuum analyze`);
}
