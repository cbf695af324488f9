import { sql, type SQL } from 'drizzle-orm';
import { CHECK_TRANSACTION_PREFIX } from '@dealerpass/domain/billing/receipt-text';
import { moneyMovements } from '../../billing/ledger/money-movements.ts';

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
 * Every money movement of the range as the export's rows (issue 29), from the ledger's one
 * definition of them (`moneyMovements`, R18: the overview's revenue reads the same), each with its
 * account, by business date, then time (to the millisecond the file shows), kind and id. The sort
 * compares dates, instants and numbers, not their texts (the same order: ISO dates and instants in
 * UTC sort as text as they do as values); the texts are made after it: `business_date`
 * (YYYY-MM-DD), `amount_cents` (negative for money going back), `recorded_at` (ISO 8601 in UTC
 * with milliseconds, as JavaScript writes it, so it is not parsed into a Date per row) and the
 * ids. The accounts' e-mail and dealership come by one hash join before the sort (a probe per row
 * of the users' key cost twice as much, decision 056), so the sort holds those texts, in memory
 * (the export's `work_mem`). Each row names its quote by the payment's `quote_id` (decision 062);
 * the export reads the few distinct quotes themselves from `billing_quotes`, not a quote per row.
 */
export function movementsQuery(range: FinanceRange): SQL {
  const movements = moneyMovements({
    fromDate: range.from,
    toDate: range.to,
    fromAt: range.start,
    toAt: range.end,
    timeZone: range.timeZone,
  });
  // A payment by check (R14), and its return, are named by the check's transaction id prefix;
  // everything else went through the card gateway.
  const checks = `${CHECK_TRANSACTION_PREFIX}%`;
  return sql`select business_date::text as business_date, kind,
      case when gateway_transaction_id like ${checks} then 'check' else 'card' end as method,
      case when kind = 'payment' then cents else -cents end as amount_cents,
      user_id::text as account_id, account_email, dealership,
      quote_id::text as quote_id,
      gateway_transaction_id, payment_id::text as payment_id, movement_id,
      to_char(recorded at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as recorded_at
    from (select m.*, u.email as account_email, u.dealership
      from ${movements} m join users u on u.id = m.user_id
      order by business_date, date_trunc('milliseconds', recorded), kind_rank, movement_id) sorted`;
}
