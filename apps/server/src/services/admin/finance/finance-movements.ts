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
 * range, `business_date` (text), `kind_rank`, `kind`, `method`, `amount_cents` (negative for
 * money going back), `account_id`, `account_email`, `dealership`, `quote` (the billing period's
 * priced lines, as JSON text: the same few documents repeat, so each is read once), `gateway_transaction_id`, `payment_id`, `movement_id` and `recorded_at`.
 */
export interface MovementSource {
  kind: TFinanceMovementKind;
  select(range: FinanceRange): SQL;
}

const inRange = (column: SQL, range: FinanceRange) =>
  sql`${column} >= ${range.start.toISOString()}::timestamptz and ${column} < ${range.end.toISOString()}::timestamptz`;
/**
 * An instant as ISO 8601 text in UTC with milliseconds, as JavaScript writes it: sent as text, it
 * is not parsed into a Date per row, and such texts sort as their instants do.
 */
const isoText = (column: SQL) =>
  sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const businessDate = (column: SQL, range: FinanceRange) =>
  sql`((${column} at time zone ${range.timeZone})::date)::text`;

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
      select p.activation_date::text as business_date, 0 as kind_rank, 'payment' as kind,
             'card' as method, p.amount_cents, p.user_id::text as account_id, u.email as account_email,
             u.dealership, bp.quote::text as quote, p.gateway_transaction_id, p.id::text as payment_id,
             p.id::text as movement_id, ${isoText(sql`p.created_at`)} as recorded_at
        from payments p
        join users u on u.id = p.user_id
        join billing_periods bp on bp.id = p.billing_period_id
       where p.activation_date >= ${range.from}::date and p.activation_date <= ${range.to}::date`,
  },
  {
    // Staff refunds that went through (R12), on the business date they were settled.
    kind: 'refund',
    select: (range) => sql`
      select ${businessDate(sql`r.settled_at`, range)} as business_date, 1 as kind_rank,
             'refund' as kind, 'card' as method, -r.amount_cents as amount_cents,
             r.user_id::text as account_id, u.email as account_email, u.dealership, bp.quote::text as quote,
             r.gateway_refund_id as gateway_transaction_id, r.payment_id::text as payment_id,
             r.id::text as movement_id, ${isoText(sql`r.settled_at`)} as recorded_at
        from refunds r
        join payments p on p.id = r.payment_id
        join users u on u.id = r.user_id
        join billing_periods bp on bp.id = p.billing_period_id
       where r.status = 'succeeded' and ${inRange(sql`r.settled_at`, range)}`,
  },
  {
    // R4's trial refund: what staff had not refunded yet went back when the trial was cancelled.
    // The gateway's refund id is not kept for it; the payment's id names what was refunded.
    kind: 'refund',
    select: (range) => sql`
      select ${businessDate(sql`p.refunded_at`, range)} as business_date, 1 as kind_rank,
             'refund' as kind, 'card' as method,
             -coalesce(p.refund_claimed_cents, p.amount_cents) as amount_cents,
             p.user_id::text as account_id, u.email as account_email, u.dealership, bp.quote::text as quote,
             null as gateway_transaction_id, p.id::text as payment_id,
             'trial-refund:' || p.id as movement_id, ${isoText(sql`p.refunded_at`)} as recorded_at
        from payments p
        join users u on u.id = p.user_id
        join billing_periods bp on bp.id = p.billing_period_id
       where p.status = 'refunded' and p.refunded_at is not null
         and coalesce(p.refund_claimed_cents, p.amount_cents) > 0
         and ${inRange(sql`p.refunded_at`, range)}`,
  },
  {
    // A chargeback takes back what was not refunded of its payment (R15), on the business date it
    // was recorded; its 25-dollar fee is owed on the balance, not money that moved.
    kind: 'chargeback',
    select: (range) => sql`
      select ${businessDate(sql`p.charged_back_at`, range)} as business_date, 2 as kind_rank,
             'chargeback' as kind, 'card' as method,
             -(p.amount_cents - coalesce((select sum(r.amount_cents) from refunds r
                where r.payment_id = p.id and r.status = 'succeeded'), 0))::int as amount_cents,
             p.user_id::text as account_id, u.email as account_email, u.dealership, bp.quote::text as quote,
             p.gateway_transaction_id, p.id::text as payment_id,
             'chargeback:' || p.id as movement_id, ${isoText(sql`p.charged_back_at`)} as recorded_at
        from payments p
        join users u on u.id = p.user_id
        join billing_periods bp on bp.id = p.billing_period_id
       where p.charged_back_at is not null and ${inRange(sql`p.charged_back_at`, range)}`,
  },
];

/** Every source's rows as one query, by business date, then time, kind and id. */
export function movementsQuery(range: FinanceRange): SQL {
  const parts = MOVEMENT_SOURCES.map((source) => sql`(${source.select(range)})`);
  return sql`select * from (${sql.join(parts, sql` union all `)}) movements
    order by business_date, recorded_at, kind_rank, movement_id`;
}
