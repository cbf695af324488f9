/**
 * The finance export benchmark's month (bench/finance-export.ts), seeded in bulk SQL: `accounts`
 * accounts, each paid once in March 2026 and once in February (outside the range, so the filter
 * has work to do), a tenth of March's payments refunded in part and one in fifty charged back. Its
 * own module so that the export's query can be looked at (EXPLAIN) on the same data.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../apps/server/src/db/client.ts';

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
export async function seedFinanceMonth(db: Database, accounts: number): Promise<void> {
  const chunk = 25_000;
  for (let from = 1; from <= accounts; from += chunk) {
    const to = Math.min(accounts, from + chunk - 1);
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
