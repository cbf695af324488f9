import { sql, type SQL } from 'drizzle-orm';
import {
  FINANCE_MOVEMENT_KINDS,
  type TFinanceMovementKind,
} from '@dealerpass/domain/admin/finance-export';
import { CHECK_TRANSACTION_PREFIX } from '@dealerpass/domain/billing/receipt-text';

/** Business dates (YYYY-MM-DD, both included) and the instants that bound them in R4's time zone. */
export interface MoneyRange {
  fromDate: string;
  toDate: string;
  /** The first instant of `fromDate` and of the day after `toDate` in the business time zone. */
  fromAt: Date;
  toAt: Date;
  timeZone: string;
}

/**
 * One kind of money movement of the ledger as a SELECT with these columns, for every movement
 * whose business date is in the range:
 * - `kind` ('payment', 'refund', 'chargeback', 'returned check') and `kind_rank` (its place in FINANCE_MOVEMENT_KINDS);
 * - `cents`: what moved, always positive (R18: refunds and chargebacks are taken away);
 * - `business_date` (a date) and `recorded` (the instant it was recorded);
 * - `user_id`, `payment_id`, `quote_id` (its payment's quote in `billing_quotes`, decision 062);
 * - `gateway_transaction_id` and `movement_id` (text, unique per movement).
 */
interface MoneyMovementSource {
  kind: TFinanceMovementKind;
  select(range: MoneyRange, rank: number): SQL;
}

/** A payment by check (R14) is named by its transaction id's prefix (`isCheckPayment`). */
const CHECKS = `${CHECK_TRANSACTION_PREFIX}%`;

const inRange = (column: SQL, range: MoneyRange) =>
  sql`${column} >= ${range.fromAt.toISOString()}::timestamptz and ${column} < ${range.toAt.toISOString()}::timestamptz`;
const businessDate = (column: SQL, range: MoneyRange) =>
  sql`(${column} at time zone ${range.timeZone})::date`;

/**
 * Every money movement of the ledger, each kind its own SELECT: the one definition (R18) that the
 * overview's revenue, its drill-down and the finance export all read. Another kind is one more
 * entry here.
 */
const MONEY_MOVEMENT_SOURCES: readonly MoneyMovementSource[] = [
  {
    // Every approved payment (R4: one payments row per successful charge, card or check), on its
    // stored business date. A payment refunded or charged back later stays a payment: what went
    // back is a movement of its own.
    kind: 'payment',
    select: (range, rank) => sql`
      select 'payment'::text as kind, ${sql.raw(String(rank))} as kind_rank,
             p.amount_cents as cents, p.activation_date as business_date,
             p.created_at as recorded, p.user_id, p.id as payment_id,
             p.quote_id, p.gateway_transaction_id,
             p.id::text as movement_id
        from payments p
       where p.activation_date >= ${range.fromDate}::date
         and p.activation_date <= ${range.toDate}::date`,
  },
  {
    // Staff refunds that went through (R12), on the business date they were settled.
    kind: 'refund',
    select: (range, rank) => sql`
      select 'refund'::text as kind, ${sql.raw(String(rank))} as kind_rank,
             r.amount_cents as cents, ${businessDate(sql`r.settled_at`, range)} as business_date,
             r.settled_at as recorded, r.user_id, r.payment_id, p.quote_id,
             r.gateway_refund_id as gateway_transaction_id, r.id::text as movement_id
        from refunds r
        join payments p on p.id = r.payment_id
       where r.status = 'succeeded' and ${inRange(sql`r.settled_at`, range)}`,
  },
  {
    // R4's trial refund: what staff had not refunded yet went back when the trial was cancelled
    // (its claim; the whole payment when no claim was recorded). A claim of nothing moved
    // nothing. The gateway's refund id is not kept for it; the payment's id names it.
    kind: 'refund',
    select: (range, rank) => sql`
      select 'refund'::text as kind, ${sql.raw(String(rank))} as kind_rank,
             coalesce(p.refund_claimed_cents, p.amount_cents) as cents,
             ${businessDate(sql`p.refunded_at`, range)} as business_date, p.refunded_at as recorded,
             p.user_id, p.id as payment_id, p.quote_id,
             null::text as gateway_transaction_id, 'trial-refund:' || p.id as movement_id
        from payments p
       where p.status = 'refunded' and ${inRange(sql`p.refunded_at`, range)}
         and p.gateway_transaction_id not like ${CHECKS}
         and coalesce(p.refund_claimed_cents, p.amount_cents) > 0`,
  },
  {
    // A chargeback takes back what was not refunded of its payment when it was recorded (R15, as
    // recordChargeback covers it: no refund is in flight then, and none goes out after), on the
    // business date it was recorded. Its 25-dollar fee is owed on the balance: no money moved.
    kind: 'chargeback',
    select: (range, rank) => sql`
      select 'chargeback'::text as kind, ${sql.raw(String(rank))} as kind_rank,
             (p.amount_cents - coalesce((select sum(r.amount_cents) from refunds r
               where r.payment_id = p.id and r.status = 'succeeded'
                 and r.settled_at <= p.charged_back_at), 0))::int as cents,
             ${businessDate(sql`p.charged_back_at`, range)} as business_date,
             p.charged_back_at as recorded, p.user_id, p.id as payment_id,
             p.quote_id, p.gateway_transaction_id,
             'chargeback:' || p.id as movement_id
        from payments p
       where ${inRange(sql`p.charged_back_at`, range)}`,
  },
  {
    // R14's returned check: a check that paid an invoice came back unpaid, and its payment was
    // reversed whole (returnCheck: the payment refunded, the amount owed again), on the business
    // date it was returned. A check is never refunded or charged back otherwise (refundPayment and
    // recordStaffChargeback refuse it), so a check's refunded payment is a returned check.
    kind: 'returned check',
    select: (range, rank) => sql`
      select 'returned check'::text as kind, ${sql.raw(String(rank))} as kind_rank,
             p.amount_cents as cents, ${businessDate(sql`p.refunded_at`, range)} as business_date,
             p.refunded_at as recorded, p.user_id, p.id as payment_id,
             p.quote_id, p.gateway_transaction_id,
             'returned-check:' || p.id as movement_id
        from payments p
       where p.status = 'refunded' and ${inRange(sql`p.refunded_at`, range)}
         and p.gateway_transaction_id like ${CHECKS}`,
  },
];

/**
 * The ledger's money movements in the range as one SQL relation with the columns above, of the
 * given kinds (all by default). The overview sums `cents` by kind (the domain's `addToRevenue`);
 * the finance export writes each as a row.
 */
export function moneyMovements(
  range: MoneyRange,
  kinds: readonly TFinanceMovementKind[] = FINANCE_MOVEMENT_KINDS,
): SQL {
  const parts = MONEY_MOVEMENT_SOURCES.filter((source) => kinds.includes(source.kind)).map(
    (source) => sql`(${source.select(range, FINANCE_MOVEMENT_KINDS.indexOf(source.kind))})`,
  );
  return sql`(${sql.join(parts, sql` union all `)})`;
}

/**
 * The money that went back in the range: refunds (staff and trial), chargebacks and returned
 * checks. The overview reads these from the ledger and the payments from their rollup
 * (docs/decisions/051): returns are a few in a hundred payments.
 */
export function moneyReturns(range: MoneyRange): SQL {
  return moneyMovements(
    range,
    FINANCE_MOVEMENT_KINDS.filter((kind) => kind !== 'payment'),
  );
}
