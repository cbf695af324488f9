import { sql, type SQL } from 'drizzle-orm';
import type { TFinanceMovementKind } from '@dealerpass/domain/admin/finance-export';

/** The business dates an export covers, and the instants that bound them in R4's time zone. */
export interface FinanceRange {
  /** First and last business date, 'YYYY-MM-DD', both included. */
  from: string;
  to: string;
  /** The first instant of `from` and of the day after `to` in the business time zone. */
  start: Date;
  end: Date;
  timeZone: string;
}

/**
 * One kind of money movement as the export's rows: a SELECT giving, for every movement in the
 * range, `business_date` (a date), `recorded` (the instant it was recorded), `kind_rank`, `kind`,
 * `method`, `amount_cents` (negative for money going back), `account_id` (a uuid),
 * `account_email`, `dealership`, `quote` (the billing period's priced lines, jsonb),
 * `gateway_transaction_id`, `payment_id` (a uuid) and `movement_id` (text). The export sorts these
 * typed values and writes them as text only after the sort (`movementsQuery`).
 */
export interface MovementSource {
  kind: TFinanceMovementKind;
  select(range: FinanceRange): SQL;
}

const inRange = (column: SQL, range: FinanceRange) =>
  sql`${column} >= ${range.start.toISOString()}::timestamptz and ${column} < ${range.end.toISOString()}::timestamptz`;
const businessDate = (column: SQL, range: FinanceRange) =>
  sql`(${column} at time zone ${range.timeZone})::date`;

/**
 * Every kind of money movement the export lists (issue 29), each its own SELECT. Another kind
 * (issue 28's invoices and checks) is one more entry here, with its kind in the domain's
 * FINANCE_MOVEMENT_KINDS; the export's query, order and CSV follow from this list.
 */
export const MOVEMENT_SOURCES: readonly MovementSource[] = [
  {
    // Every approved card charge (R4: one payment row each), on its stored business date; a
    // payment later refunded or charged back stays listed here, its return is a row of its own.
    kind: 'payment',
    select: (range) => sql`
      select p.activation_date as business_date, p.created_at as recorded, 0 as kind_rank,
             'payment' as kind, 'card' as method, p.amount_cents, p.user_id as account_id,
             u.email as account_email, u.dealership, p.billing_period_id as period_id,
             p.gateway_transaction_id,
             p.id as payment_id, p.id::text as movement_id
        from payments p
        join users u on u.id = p.user_id
       where p.activation_date >= ${range.from}::date and p.activation_date <= ${range.to}::date`,
  },
  {
    // Staff refunds that went through (R12), on the business date they were settled.
    kind: 'refund',
    select: (range) => sql`
      select ${businessDate(sql`r.settled_at`, range)} as business_date, r.settled_at as recorded,
             1 as kind_rank, 'refund' as kind, 'card' as method, -r.amount_cents as amount_cents,
             r.user_id as account_id, u.email as account_email, u.dealership,
             p.billing_period_id as period_id,
             r.gateway_refund_id as gateway_transaction_id, r.payment_id, r.id::text as movement_id
        from refunds r
        join payments p on p.id = r.payment_id
        join users u on u.id = r.user_id
       where r.status = 'succeeded' and ${inRange(sql`r.settled_at`, range)}`,
  },
  {
    // R4's trial refund: what staff had not refunded yet went back when the trial was cancelled.
    // The gateway's refund id is not kept for it; the payment's id names what was refunded.
    kind: 'refund',
    select: (range) => sql`
      select ${businessDate(sql`p.refunded_at`, range)} as business_date, p.refunded_at as recorded,
             1 as kind_rank, 'refund' as kind, 'card' as method,
             -coalesce(p.refund_claimed_cents, p.amount_cents) as amount_cents,
             p.user_id as account_id, u.email as account_email, u.dealership,
             p.billing_period_id as period_id,
             null as gateway_transaction_id, p.id as payment_id,
             'trial-refund:' || p.id as movement_id
        from payments p
        join users u on u.id = p.user_id
       where p.status = 'refunded' and p.refunded_at is not null
         and coalesce(p.refund_claimed_cents, p.amount_cents) > 0
         and ${inRange(sql`p.refunded_at`, range)}`,
  },
  {
    // A chargeback takes back what was not refunded of its payment (R15), on the business date it
    // was recorded; its 25-dollar fee is owed on the balance, not money that moved.
    kind: 'chargeback',
    select: (range) => sql`
      select ${businessDate(sql`p.charged_back_at`, range)} as business_date,
             p.charged_back_at as recorded, 2 as kind_rank, 'chargeback' as kind, 'card' as method,
             -(p.amount_cents - coalesce((select sum(r.amount_cents) from refunds r
                where r.payment_id = p.id and r.status = 'succeeded'), 0))::int as amount_cents,
             p.user_id as account_id, u.email as account_email, u.dealership,
             p.billing_period_id as period_id,
             p.gateway_transaction_id, p.id as payment_id, 'chargeback:' || p.id as movement_id
        from payments p
        join users u on u.id = p.user_id
       where p.charged_back_at is not null and ${inRange(sql`p.charged_back_at`, range)}`,
  },
];

/**
 * Every source's rows as one query, by business date, then time (to the millisecond the file
 * shows), kind and id. The sort compares dates, instants and numbers, not their texts (the same
 * order: ISO dates and instants in UTC sort as text as they do as values); the texts are made
 * after it: `business_date` (YYYY-MM-DD), `recorded_at` (ISO 8601 in UTC with milliseconds, as
 * JavaScript writes it, so it is not parsed into a Date per row), the ids, and `quote` (JSON text:
 * the same few documents repeat, so each is read once).
 */
export function movementsQuery(range: FinanceRange): SQL {
  const parts = MOVEMENT_SOURCES.map((source) => sql`(${source.select(range)})`);
  return sql`select business_date::text as business_date, kind, method, amount_cents,
      account_id::text as account_id, account_email, dealership,
      (select bp.quote::text from billing_periods bp where bp.id = sorted.period_id) as quote,
      gateway_transaction_id, payment_id::text as payment_id, movement_id,
      to_char(recorded at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at
    from (select * from (${sql.join(parts, sql` union all `)}) movements
      order by business_date, date_trunc('milliseconds', recorded), kind_rank, movement_id) sorted`;
}
