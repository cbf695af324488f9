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
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { moneyMovements } from './money-movements.ts';
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
  const ends = months.map((month) => monthEndInstant(month, timeZone, now).toISOString());
  const bounds = periodBounds(input.from, input.to, timeZone);
  const monthOfInstant = (column: string) =>
    sql`to_char((${sql.raw(column)} at time zone ${timeZone}), 'YYYY-MM')`;
  const paying = statusList(PAYING_STATUSES);

  const [payingNow, mrrNow, dunning, mrrByMonth, revenueRows, movementRows, recoveredRows, items] =
    await Promise.all([
      sqlRows<{ status: string; complimentary: boolean; count: number }>(
        db,
        sql`select account_status as status, complimentary, count(*)::int as count
          from users where account_status in (${paying}) group by 1, 2`,
      ),
      sqlRows<{ cents: number }>(
        db,
        sql`select coalesce(sum(mrr_cents), 0)::bigint as cents
          from account_mrr_history where valid_to is null`,
      ),
      sqlRows<{ accounts: number; cents: number }>(
        db,
        sql`select count(*)::int as accounts, coalesce(sum(owed), 0)::bigint as cents from (
            select sum(b.amount_cents) as owed from users u
            join balance_entries b on b.user_id = u.id
            where u.account_status = ${ACCOUNT_STATUS.validatingPayment}
            group by u.id) owing
          where owed > 0`,
      ),
      // A month's MRR is what was open at its last instant: opened before its end, closed at it or later.
      sqlRows<{ month: string; cents: number }>(
        db,
        sql`select m.month, coalesce(sum(h.mrr_cents), 0)::bigint as cents
          from unnest(${sql.param(months)}::text[], ${sql.param(ends)}::timestamptz[]) as m(month, at)
          left join account_mrr_history h
            on h.valid_from < m.at and (h.valid_to is null or h.valid_to >= m.at)
            and h.mrr_cents <> 0
          group by m.month`,
      ),
      sqlRows<{ month: string; kind: 'payment' | 'refund' | 'chargeback'; cents: number }>(
        db,
        sql`select to_char(business_date, 'YYYY-MM') as month, kind, sum(cents)::bigint as cents
          from ${moneyMovements(bounds)} movements group by 1, 2`,
      ),
      sqlRows<{
        month: string;
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
      sqlRows<{ month: string; count: number }>(
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
  for (const row of mrrByMonth) {
    const month = perMonth.get(row.month);
    if (month) month.mrrCents = Number(row.cents);
  }
  for (const row of movementRows) {
    const month = perMonth.get(row.month);
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
    const month = perMonth.get(row.month);
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
      mrrCents: Number(mrrNow[0]?.cents ?? 0),
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
 * split by item: they show in the revenue chart.
 */
async function revenueByItem(db: Database, bounds: ReturnType<typeof periodBounds>) {
  const rows = await sqlRows<{ code: string; cents: number }>(
    db,
    sql`with paid as (
        select p.amount_cents, bp.quote from payments p
        join billing_periods bp on bp.id = p.billing_period_id
        where p.activation_date between ${bounds.fromDate}::date and ${bounds.toDate}::date)
      select line->>'code' as code, sum((line->>'cents')::int)::bigint as cents
        from paid, jsonb_array_elements(paid.quote->'lines') as line group by 1
      union all
      select 'PLATFORM_FEE', coalesce(sum((quote->>'platformFeeCents')::int), 0)::bigint from paid
      union all
      select 'TOTAL', coalesce(sum(amount_cents), 0)::bigint from paid`,
  );
  const total = Number(rows.find((row) => row.code === 'TOTAL')?.cents ?? 0);
  const items: { code: string; name: string; group: string; cents: number }[] = [];
  let adjustment = total;
  for (const row of rows) {
    const cents = Number(row.cents);
    if (row.code === 'TOTAL') continue;
    if (row.code === 'PLATFORM_FEE') {
      if (cents !== 0)
        items.push({ code: row.code, name: 'Platform fee', group: 'Platform fee', cents });
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
