import { monthEndInstant, revenueGroupOf, type TMonth } from '@dealerpass/domain/overview/figures';
import {
  OVERVIEW_ACCOUNTS_LIMIT,
  type TOverviewAccounts,
  type TOverviewAccountsQuery,
  type TOverviewFigure,
} from '@dealerpass/domain/overview/overview-views';
import type { TFinanceMovementKind } from '@dealerpass/domain/admin/finance-export';
import { ALL_SUBSCRIPTION_CODES, isSubscriptionCode } from '@dealerpass/domain/catalogue';
import { sql, type SQL } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { periodBounds } from './get-overview.ts';
import { moneyMovements } from '../billing/ledger/money-movements.ts';
import { sqlRows } from './sql-rows.ts';

/** The money movement a bar of the revenue chart stands for. */
const MOVEMENT_OF_FIGURE = {
  payments: 'payment',
  refunds: 'refund',
  chargebacks: 'chargeback',
  returnedChecks: 'returned check',
} as const satisfies Partial<Record<TOverviewFigure, TFinanceMovementKind>>;

/**
 * The accounts behind one bar or point of the overview (issue 29): who made up a month's MRR,
 * paid, was refunded or charged back or had a check returned, was new, reactivated or churned (of a cause), entered or
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
      members = sql`select user_id, sum(mrr_cents)::bigint as cents from account_mrr_history
        where valid_from < ${at}::timestamptz
          and (valid_to is null or valid_to >= ${at}::timestamptz) and mrr_cents <> 0
        group by user_id`;
      break;
    }
    case 'payments':
    case 'refunds':
    case 'chargebacks':
    case 'returnedChecks': {
      const kind = MOVEMENT_OF_FIGURE[figure];
      members = sql`select user_id, sum(cents)::bigint as cents
        from ${moneyMovements(bounds, [kind])} m group by user_id`;
      break;
    }
    case 'dunningRecovered':
      members = sql`select user_id, null::bigint as cents from account_mrr_history
        where movement = 'dunningRecovered'
          and dunning_since >= ${fromAt}::timestamptz and dunning_since < ${toAt}::timestamptz
        group by user_id`;
      break;
    case 'item': {
      // From each account's running totals (docs/decisions/061): what its payments of the
      // months bought, the total at the last month less the total before the first.
      const first = businessMonth(bounds.fromDate) - 1;
      const last = businessMonth(bounds.toDate);
      const between = (column: string) =>
        sql`running_at(first_month, ${sql.raw(column)}, ${last}::int)
          - running_at(first_month, ${sql.raw(column)}, ${first}::int)`;
      const codes = itemCodesOf(detail ?? '');
      // One row per account and code: an item's bar reads its rows as they are, a group's
      // adds up each account's codes, in integers (an account's one item over at most 24
      // months is far below 2^31 cents; a sum of bigints would be a numeric, twice as slow).
      members =
        codes.length === 1
          ? sql`select user_id, ${between('cents')} as cents from account_item_totals
            where code = ${codes[0]} and ${between('lines')} > 0`
          : sql`select user_id, sum((${between('cents')})::int) as cents
            from account_item_totals
            where code = any(${sql.param(codes)}::text[])
            group by user_id
            having sum((${between('lines')})::int) > 0`;
      break;
    }
    default: {
      const cause =
        figure === 'churned' && detail ? sql`and (cause = ${detail} or reason = ${detail})` : sql``;
      members = sql`select user_id, null::bigint as cents from account_mrr_history
        where movement = ${figure}
          and valid_from >= ${fromAt}::timestamptz and valid_from < ${toAt}::timestamptz ${cause}
        group by user_id`;
    }
  }
  // One row per account (each figure's rows above are), counted, and the largest first: the
  // accounts' names are read only for the rows that can be among the first LIMIT, those at or
  // above the LIMIT-th largest amount (all of them when it has none), decision 061.
  const rows = await db.transaction(async (tx) => {
    // The members and their sort in memory, not merged on disk (100,000 accounts behind a bar).
    await tx.execute(sql`set local work_mem = '32MB'`);
    return sqlRows<{
      user_id: string;
      dealership: string;
      email: string;
      status: string;
      cents: number | null;
      total: number;
    }>(
      tx,
      sql`with members as materialized (${members}),
        threshold as (select cents from members
          order by cents desc nulls last offset ${OVERVIEW_ACCOUNTS_LIMIT - 1} limit 1)
        select u.id as user_id, u.dealership, u.email, u.account_status as status, m.cents,
          (select count(*) from members)::int as total
        from members m join users u on u.id = m.user_id
        where (select cents from threshold) is null or m.cents >= (select cents from threshold)
        order by m.cents desc nulls last, u.dealership, u.id
        limit ${OVERVIEW_ACCOUNTS_LIMIT}`,
    );
  });
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
