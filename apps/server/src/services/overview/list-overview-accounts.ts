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
      const code = detail ?? '';
      const matches = isSubscriptionCode(code)
        ? sql`line->>'code' = ${code}`
        : sql`line->>'code' = any(${sql.param(itemCodesOfGroup(code))}::text[])`;
      members = sql`select p.user_id, sum((line->>'cents')::int)::bigint as cents
        from payments p join billing_periods bp on bp.id = p.billing_period_id,
          jsonb_array_elements(bp.quote->'lines') as line
        where p.activation_date between ${bounds.fromDate}::date and ${bounds.toDate}::date
          and ${matches}
        group by p.user_id`;
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

/** The item codes of a revenue group (a drill-down on a group's bar). */
function itemCodesOfGroup(group: string): string[] {
  return ALL_SUBSCRIPTION_CODES.filter((code) => revenueGroupOf(code) === group);
}
