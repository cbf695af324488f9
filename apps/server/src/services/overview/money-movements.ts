import { sql, type SQL } from 'drizzle-orm';

export interface MoneyRange {
  fromDate: string;
  toDate: string;
  fromAt: Date;
  toAt: Date;
  timeZone: string;
}

/**
 * The ledger's money movements between two instants as one SQL relation
 * `(kind, user_id, payment_id, cents, business_date)` (R18's gross revenue; the finance exports
 * read the same rows): approved payments by their business date; staff refunds when they
 * succeeded; the trial cancellation's refund of what staff had not refunded; chargebacks of what
 * was not refunded before them (R15). Cents are positive; the domain's `addToRevenue` subtracts
 * refunds and chargebacks. `fromDate`/`toDate` are business dates (YYYY-MM-DD, both included),
 * `fromAt`/`toAt` the instants that bound them in the business time zone.
 */
export function moneyMovements(range: MoneyRange): SQL {
  return sql`(
    select 'payment'::text as kind, p.user_id, p.id as payment_id, p.amount_cents as cents,
      p.activation_date as business_date
    from payments p
    where p.activation_date between ${range.fromDate}::date and ${range.toDate}::date
    union all
    select * from ${moneyReturns(range)} money_back
  )`;
}

/**
 * The money that went back in the range, as `moneyMovements` lists it: refunds (staff and trial)
 * and chargebacks. The overview reads these from the ledger and the payments from their rollup
 * (docs/decisions/051): returns are a few in a hundred payments.
 */
export function moneyReturns(range: MoneyRange): SQL {
  const fromAt = range.fromAt.toISOString();
  const toAt = range.toAt.toISOString();
  const businessDate = (column: SQL) => sql`(${column} at time zone ${range.timeZone})::date`;
  return sql`(
    select 'refund'::text as kind, r.user_id, r.payment_id, r.amount_cents as cents,
      ${businessDate(sql`r.settled_at`)} as business_date
    from refunds r
    where r.status = 'succeeded'
      and r.settled_at >= ${fromAt}::timestamptz and r.settled_at < ${toAt}::timestamptz
    union all
    select 'refund', p.user_id, p.id, coalesce(p.refund_claimed_cents, p.amount_cents),
      ${businessDate(sql`p.refunded_at`)}
    from payments p
    where p.status = 'refunded'
      and p.refunded_at >= ${fromAt}::timestamptz and p.refunded_at < ${toAt}::timestamptz
    union all
    select 'chargeback', p.user_id, p.id,
      p.amount_cents - coalesce((select sum(r.amount_cents) from refunds r
        where r.payment_id = p.id and r.status = 'succeeded'
          and r.settled_at <= p.charged_back_at), 0)::int,
      ${businessDate(sql`p.charged_back_at`)}
    from payments p
    where p.charged_back_at >= ${fromAt}::timestamptz and p.charged_back_at < ${toAt}::timestamptz
  )`;
}
