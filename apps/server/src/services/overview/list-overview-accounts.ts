import { monthEndInstant, revenueGroupOf, type TMonth } from '@dealerpass/domain/overview/figures';
import {
  OVERVIEW_ACCOUNTS_LIMIT,
  type TOverviewAccounts,
  type TOverviewAccountsQuery,
} from '@dealerpass/domain/overview/overview-views';
import { ALL_SUBSCRIPTION_CODES, isSubscriptionCode } from '@dealerpass/domain/catalogue';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { periodBounds } from './get-overview.ts';
import { moneyMovements } from '../billing/ledger/money-movements.ts';
import { sqlRows } from './sql-rows.ts';

/**
 * The accounts behind one bar or point of the overview (issue 29): who made up a month's MRR,
 * paid, was refunded or charged back, was new, reactivated or churned (of a cause), entered or
 * left dunning, or bought an item. Each with what it adds when that is money; the largest first.
 */
export async function listOverviewAccounts(
  db: Database,
  input: TOverviewAccountsQuery & { timeZone: string; now: Date },
): Promise<TOverviewAccounts> {
  const { figure, month, detail, timeZone, now } = input;
  const bounds = periodBounds(month, input.to ?? month, timeZone);
  const fromAt = bounds.fromAt.toISOString();
  const toAt = bounds.toAt.toISOString();
  let members: SQL;
  switch (figure) {
    case 'mrr': {
      const at = monthEndInstant(month as TMonth, timeZone, now).toISOString();
      members = sql`select user_id, mrr_cents as cents from account_mrr_history
        where valid_from < ${at}::timestamptz
          and (valid_to is null or valid_to >= ${at}::timestamptz) and mrr_cents <> 0`;
      break;
    }
    case 'payments':
    case 'refunds':
    case 'chargebacks': {
      const kind =
        figure === 'payments' ? 'payment' : figure === 'refunds' ? 'refund' : 'chargeback';
      members = sql`select user_id, sum(cents)::bigint as cents
        from ${moneyMovements(bounds, [kind])} m group by user_id`;
      break;
    }
    case 'dunningRecovered':
      members = sql`select user_id, null::bigint as cents from account_mrr_history
        where movement = 'dunningRecovered'
          and dunning_since >= ${fromAt}::timestamptz and dunning_since < ${toAt}::timestamptz`;
      break;
    case 'item': {
      // From each account's running totals (docs/decisions/061): what its payments of the
      // months bought, the total at the last month less the total before the first.
      const first = businessMonth(bounds.fromDate) - 1;
      const last = businessMonth(bounds.toDate);
      const between = (column: string) =>
        sql`running_at(first_month, ${sql.raw(column)}, ${last}::int)
          - running_at(first_month, ${sql.raw(column)}, ${first}::int)`;
      members = sql`select user_id, sum(${between('cents')})::bigint as cents
        from account_item_totals
        where code = any(${sql.param(itemCodesOf(detail ?? ''))}::text[])
        group by user_id
        having sum(${between('lines')}) > 0`;
      break;
    }
    default: {
      const cause =
        figure === 'churned' && detail ? sql`and (cause = ${detail} or reason = ${detail})` : sql``;
      members = sql`select user_id, null::bigint as cents from account_mrr_history
        where movement = ${figure}
          and valid_from >= ${fromAt}::timestamptz and valid_from < ${toAt}::timestamptz ${cause}`;
    }
  }
  const rows = await sqlRows<{
    user_id: string;
    dealership: string;
    email: string;
    status: string;
    cents: number | null;
    total: number;
  }>(
    db,
    sql`with members as (${members})
      select u.id as user_id, u.dealership, u.email, u.account_status as status,
        sum(m.cents)::bigint as cents, count(*) over ()::int as total
      from members m join users u on u.id = m.user_id
      group by u.id
      order by sum(m.cents) desc nulls last, u.dealership, u.id
      limit ${OVERVIEW_ACCOUNTS_LIMIT}`,
  );
  return {
    total: Number(rows[0]?.total ?? 0),
    accounts: rows.map((row) => ({
      userId: row.user_id,
      dealership: row.dealership,
      email: row.email,
      status: row.status,
      cents: row.cents === null ? null : Number(row.cents),
    })),
  };
}

/**
 * The codes behind a bar of revenue by item (an item, or the platform fee) or by group (its items;
 * the platform fee's group is the fee).
 */
function itemCodesOf(detail: string): string[] {
  if (isSubscriptionCode(detail) || detail === 'PLATFORM_FEE') return [detail];
  if (detail === revenueGroupOf('PLATFORM_FEE')) return ['PLATFORM_FEE'];
  return ALL_SUBSCRIPTION_CODES.filter((code) => revenueGroupOf(code) === detail);
}

/** A business date's month as months since the year 0, as the totals count them (061). */
function businessMonth(date: string): number {
  const [year, month] = date.split('-').map(Number) as [number, number];
  return year * 12 + month - 1;
}
