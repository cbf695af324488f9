import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { isSubscriptionCode, nameOf } from '@dealerpass/domain/catalogue';
import {
  addToRevenue,
  CHURN_CAUSES,
  monthDates,
  monthEndInstant,
  monthsBetween,
  PAYING_STATUSES,
  recoveryRatePercent,
  revenueGroupOf,
  ZERO_REVENUE,
  type IRevenue,
  type TChurnCause,
  type TMonth,
} from '@dealerpass/domain/overview/figures';
import type { TOverview, TOverviewMonth } from '@dealerpass/domain/overview/overview-views';
import { addDays, startOfDayIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { TFinanceMovementKind } from '@dealerpass/domain/admin/finance-export';
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { moneyReturns } from '../billing/ledger/money-movements.ts';
import { readMrr } from './read-mrr.ts';
import { sqlRows } from './sql-rows.ts';

/** The instants and business dates a range of months covers. */
export function periodBounds(from: TMonth, to: TMonth, timeZone: string) {
  const first = monthDates(from).first;
  const last = monthDates(to).last;
  return {
    fromDate: toIsoDate(first),
    toDate: toIsoDate(last),
    fromAt: startOfDayIn(first, timeZone),
    toAt: startOfDayIn(addDays(last, 1), timeZone),
    timeZone,
  };
}

const statusList = (statuses: readonly string[]) =>
  sql.join(
    statuses.map((status) => sql`${status}`),
    sql`, `,
  );

/**
 * The overview's data (R18, issue 29): the figures of now, and per month of the period MRR at its
 * end, gross revenue with its parts, new, reactivated and churned accounts (by cause and by
 * reason), dunning entered and recovered; revenue by product group and item over the period.
 */
export async function getOverview(
  db: Database,
  input: { from: TMonth; to: TMonth; timeZone: string; now: Date },
): Promise<TOverview> {
  const { timeZone, now } = input;
  const months = monthsBetween(input.from, input.to);
  const ends = months.map((month) => monthEndInstant(month, timeZone, now));
  const bounds = periodBounds(input.from, input.to, timeZone);
  // The month of an instant, as the index of the month's first instant it is at or after (1 for the
  // first month): one comparison per row instead of a time zone conversion (decision 051).
  const monthStarts = sql.param(
    months.map((month) => startOfDayIn(monthDates(month).first, timeZone).toISOString()),
  );
  const monthOfInstant = (column: string) =>
    sql`width_bucket(${sql.raw(column)}, ${monthStarts}::timestamptz[])`;
  const paying = statusList(PAYING_STATUSES);

  const [payingNow, mrr, dunning, revenueRows, movementRows, recoveredRows, items] =
    await Promise.all([
      sqlRows<{ status: string; complimentary: boolean; count: number }>(
        db,
        sql`select account_status as status, complimentary, count(*)::int as count
          from users where account_status in (${paying}) group by 1, 2`,
      ),
      // MRR at each month's end (what was open at its last instant) and now (docs/decisions/051).
      readMrr(db, ends),
      sqlRows<{ accounts: number; cents: number }>(
        db,
        sql`select count(*)::int as accounts, coalesce(sum(owed), 0)::bigint as cents from (
            select sum(b.amount_cents) as owed from users u
            join balance_entries b on b.user_id = u.id
            where u.account_status = ${ACCOUNT_STATUS.validatingPayment}
            group by u.id) owing
          where owed > 0`,
      ),
      // Payments from their rollup by business date, what went back from the ledger (decision 051).
      sqlRows<{ month: string; kind: TFinanceMovementKind; cents: number }>(
        db,
        sql`select to_char(business_date, 'YYYY-MM') as month, 'payment' as kind,
            sum(cents)::bigint as cents
          from revenue_rollup
          where part = 'paid'
            and business_date between ${bounds.fromDate}::date and ${bounds.toDate}::date
          group by 1
          union all
          select to_char(business_date, 'YYYY-MM') as month, kind, sum(cents)::bigint as cents
          from ${moneyReturns(bounds)} money_back group by 1, 2`,
      ),
      sqlRows<{
        month: number;
        movement: string;
        cause: string | null;
        reason: string | null;
        count: number;
      }>(
        db,
        sql`select ${monthOfInstant('valid_from')} as month, movement, cause, reason,
            count(*)::int as count
          from account_mrr_history
          where movement is not null
            and valid_from >= ${bounds.fromAt.toISOString()}::timestamptz
            and valid_from < ${bounds.toAt.toISOString()}::timestamptz
          group by 1, 2, 3, 4`,
      ),
      // Recovery counts by the month the account entered dunning, whenever it came back.
      sqlRows<{ month: number; count: number }>(
        db,
        sql`select ${monthOfInstant('dunning_since')} as month, count(*)::int as count
          from account_mrr_history
          where movement = 'dunningRecovered'
            and dunning_since >= ${bounds.fromAt.toISOString()}::timestamptz
            and dunning_since < ${bounds.toAt.toISOString()}::timestamptz
          group by 1`,
      ),
      revenueByItem(db, bounds),
    ]);

  const revenue = new Map<string, IRevenue>();
  for (const row of revenueRows) {
    revenue.set(
      row.month,
      addToRevenue(revenue.get(row.month) ?? ZERO_REVENUE, {
        kind: row.kind,
        cents: Number(row.cents),
      }),
    );
  }
  const perMonth = new Map<string, TOverviewMonth>(
    months.map((month) => [
      month,
      {
        month,
        mrrCents: 0,
        revenue: revenue.get(month) ?? ZERO_REVENUE,
        newAccounts: 0,
        reactivated: 0,
        churned: 0,
        churnByCause: Object.fromEntries(CHURN_CAUSES.map((cause) => [cause, 0])),
        churnByReason: {},
        dunningEntered: 0,
        dunningRecovered: 0,
        recoveryRatePercent: null,
      },
    ]),
  );
  months.forEach((month, index) => {
    perMonth.get(month)!.mrrCents = mrr.atInstants[index]!;
  });
  // The month of a bucket: bucket 1 is the period's first month.
  const monthOfBucket = (bucket: number) => perMonth.get(months[Number(bucket) - 1] ?? '');
  for (const row of movementRows) {
    const month = monthOfBucket(row.month);
    if (!month) continue;
    const count = Number(row.count);
    if (row.movement === 'new') month.newAccounts += count;
    else if (row.movement === 'reactivated') month.reactivated += count;
    else if (row.movement === 'dunningEntered') month.dunningEntered += count;
    else if (row.movement === 'churned') {
      month.churned += count;
      const cause = (row.cause ?? 'cancellation') as TChurnCause;
      month.churnByCause[cause] = (month.churnByCause[cause] ?? 0) + count;
      if (cause === 'cancellation' || cause === 'trialCancellation') {
        const reason = row.reason ?? 'none';
        month.churnByReason[reason] = (month.churnByReason[reason] ?? 0) + count;
      }
    }
  }
  for (const row of recoveredRows) {
    const month = monthOfBucket(row.month);
    if (month) month.dunningRecovered += Number(row.count);
  }
  for (const month of perMonth.values()) {
    month.recoveryRatePercent = recoveryRatePercent(month.dunningEntered, month.dunningRecovered);
  }

  const byGroup = new Map<string, number>();
  for (const item of items) byGroup.set(item.group, (byGroup.get(item.group) ?? 0) + item.cents);

  const nowPaying = PAYING_STATUSES.map((status) => ({
    status,
    count: payingNow
      .filter((row) => row.status === status && !row.complimentary)
      .reduce((sum, row) => sum + Number(row.count), 0),
  }));
  return {
    period: { from: input.from, to: input.to, months },
    now: {
      at: now.toISOString(),
      mrrCents: mrr.openCents,
      paying: nowPaying,
      complimentary: payingNow
        .filter((row) => row.complimentary)
        .reduce((sum, row) => sum + Number(row.count), 0),
      openDunningCents: Number(dunning[0]?.cents ?? 0),
      openDunningAccounts: Number(dunning[0]?.accounts ?? 0),
      openInvoices: null,
    },
    months: [...perMonth.values()],
    revenueByGroup: [...byGroup.entries()].map(([group, cents]) => ({ group, cents })),
    revenueByItem: items,
  };
}

/**
 * What the approved payments of the period bought, by item (their charged quote's lines) and the
 * platform fee; promotions, carried balances and prorated charges that differ from the lines are
 * `ADJUSTMENT`, so the items add up to the payments to the cent. Refunds and chargebacks are not
 * split by item: they show in the revenue chart. Read from the payments' rollup by business date
 * (docs/decisions/051), which holds each payment's amount, fee and lines.
 */
async function revenueByItem(db: Database, bounds: ReturnType<typeof periodBounds>) {
  const rows = await sqlRows<{ part: 'paid' | 'fee' | 'item'; code: string; cents: number }>(
    db,
    sql`select part, code, sum(cents)::bigint as cents from revenue_rollup
      where business_date between ${bounds.fromDate}::date and ${bounds.toDate}::date
      group by 1, 2`,
  );
  const total = rows
    .filter((row) => row.part === 'paid')
    .reduce((sum, row) => sum + Number(row.cents), 0);
  const items: { code: string; name: string; group: string; cents: number }[] = [];
  let adjustment = total;
  for (const row of rows) {
    const cents = Number(row.cents);
    if (row.part === 'paid') continue;
    if (row.part === 'fee') {
      if (cents !== 0)
        items.push({ code: 'PLATFORM_FEE', name: 'Platform fee', group: 'Platform fee', cents });
    } else if (isSubscriptionCode(row.code)) {
      if (cents === 0) continue;
      items.push({
        code: row.code,
        name: nameOf(row.code),
        group: revenueGroupOf(row.code),
        cents,
      });
    } else continue;
    adjustment -= cents;
  }
  if (adjustment !== 0)
    items.push({
      code: 'ADJUSTMENT',
      name: 'Adjustments',
      group: 'Adjustments',
      cents: adjustment,
    });
  return items.sort((a, b) => b.cents - a.cents);
}
