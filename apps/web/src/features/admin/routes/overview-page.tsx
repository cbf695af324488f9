import { useId, useState, type FormEvent } from 'react';
import {
  CANCELLATION_REASON_LABELS,
  CHURN_CAUSE_LABELS,
  CHURN_CAUSES,
  periodProblem,
  presetPeriod,
} from '@dealerpass/domain/overview/figures';
import type {
  TOverview,
  TOverviewAccountsQuery,
  TOverviewFigure,
} from '@dealerpass/domain/overview/overview-views';
import { calendarDateIn } from '@dealerpass/domain/time/calendar-date';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { Link } from '../../../lib/router/router.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { useOverview, useOverviewAccounts } from '../api/get-overview.ts';
import { money } from '../components/format.ts';
import { OverviewChart, formatValue, type TChartUnit } from '../components/overview-chart.tsx';
import { QueryState } from '../../../components/ui/query-state.tsx';
import { Facts, Section } from '../components/section.tsx';
import { StatusLabel } from '../components/status-label.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

const COLORS = {
  blue: '#1d4ed8',
  green: '#15803d',
  orange: '#b45309',
  red: '#b91c1c',
  purple: '#6d28d9',
  slate: '#334155',
};

const MONTH_LABEL = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  year: 'numeric',
  timeZone: 'UTC',
});

function monthLabel(month: string): string {
  return MONTH_LABEL.format(new Date(`${month}-01T00:00:00Z`));
}

type TPreset = 'thisMonth' | 'last12Months' | 'custom';

function today() {
  return calendarDateIn(new Date(), runtimeConfig().businessTimeZone);
}

/** The trend of a series in words: first and last value, the change, the highest month. */
function trend(label: string, values: (number | null)[], months: string[], unit: TChartUnit) {
  const known = values
    .map((value, index) => ({ value, month: months[index]! }))
    .filter((point): point is { value: number; month: string } => point.value !== null);
  if (known.length === 0) return `${label}: no data in this period.`;
  const first = known[0]!;
  const last = known.at(-1)!;
  const top = known.reduce((best, point) => (point.value > best.value ? point : best), first);
  if (known.length === 1)
    return `${label}: ${formatValue(first.value, unit)} in ${monthLabel(first.month)}.`;
  const direction =
    last.value > first.value ? 'rose' : last.value < first.value ? 'fell' : 'stayed level';
  return `${label} ${direction} from ${formatValue(first.value, unit)} in ${monthLabel(first.month)} to ${formatValue(last.value, unit)} in ${monthLabel(last.month)}; highest ${formatValue(top.value, unit)} in ${monthLabel(top.month)}.`;
}

/** The business at a glance (/admin for billing and admin, issue 29; R18's figures). */
export default function OverviewPage() {
  useAdminTitle('Overview');
  const [period, setPeriod] = useState(() => presetPeriod('last12Months', today()));
  const [preset, setPreset] = useState<TPreset>('last12Months');
  const [drill, setDrill] = useState<{ query: TOverviewAccountsQuery; title: string } | null>(null);
  const query = useOverview(period);

  return (
    <div className="admin-page overview-page">
      <h1>Overview</h1>
      <PeriodPicker
        preset={preset}
        period={period}
        onChange={(nextPreset, next) => {
          setPreset(nextPreset);
          setPeriod(next);
          setDrill(null);
        }}
      />
      <QueryState
        query={query}
        loading="Loading the figures…"
        failed="The figures could not be loaded."
      >
        {(data) => (
          <>
            {query.isFetching ? (
              <p className="admin-muted" role="status">
                Updating…
              </p>
            ) : null}
            <NowFigures data={data} />
            <Charts data={data} onPick={(next) => setDrill(next)} />
            {drill ? (
              <DrillDown
                key={JSON.stringify(drill.query)}
                {...drill}
                onClose={() => setDrill(null)}
              />
            ) : null}
          </>
        )}
      </QueryState>
    </div>
  );
}

function PeriodPicker({
  preset,
  period,
  onChange,
}: {
  preset: TPreset;
  period: { from: string; to: string };
  onChange: (preset: TPreset, period: { from: string; to: string }) => void;
}) {
  const id = useId();
  const [custom, setCustom] = useState(period);
  const [choice, setChoice] = useState<TPreset>(preset);
  const [problem, setProblem] = useState<string | null>(null);
  const choose = (next: TPreset) => {
    setChoice(next);
    setProblem(null);
    if (next !== 'custom') onChange(next, presetPeriod(next, today()));
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = periodProblem(custom.from, custom.to);
    setProblem(found);
    if (!found) onChange('custom', custom);
  };
  return (
    <form className="card overview-period" onSubmit={submit} aria-labelledby={`${id}-legend`}>
      <fieldset>
        <legend id={`${id}-legend`}>Period</legend>
        <div className="overview-period__choices">
          {(
            [
              ['thisMonth', 'This month'],
              ['last12Months', 'Last 12 months'],
              ['custom', 'Custom range'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="overview-period__choice">
              <input
                type="radio"
                name={`${id}-preset`}
                value={value}
                checked={choice === value}
                onChange={() => choose(value)}
              />
              {label}
            </label>
          ))}
        </div>
        {choice === 'custom' ? (
          <div className="overview-period__custom">
            <label>
              From month
              <input
                type="month"
                value={custom.from}
                aria-describedby={problem ? `${id}-problem` : undefined}
                onChange={(event) => setCustom({ ...custom, from: event.target.value })}
              />
            </label>
            <label>
              To month
              <input
                type="month"
                value={custom.to}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-problem` : undefined}
                onChange={(event) => setCustom({ ...custom, to: event.target.value })}
              />
            </label>
            <button type="submit" className="button">
              Show
            </button>
            {problem ? (
              <p id={`${id}-problem`} className="field-error" role="alert">
                {problem}
              </p>
            ) : null}
          </div>
        ) : null}
      </fieldset>
    </form>
  );
}

function NowFigures({ data }: { data: TOverview }) {
  const { now } = data;
  return (
    <Section title="Now">
      <Facts
        items={[
          ['MRR', money(now.mrrCents)],
          ...now.paying.map((row): [string, string] => [
            `Paying, ${row.status}`,
            row.count.toLocaleString('en-US'),
          ]),
          ['Complimentary accounts', now.complimentary.toLocaleString('en-US')],
          [
            'Open dunning',
            `${money(now.openDunningCents)} (${now.openDunningAccounts.toLocaleString('en-US')} ${now.openDunningAccounts === 1 ? 'account' : 'accounts'})`,
          ],
          [
            'Open invoices',
            now.openInvoices === null ? 'None issued yet' : String(now.openInvoices),
          ],
        ]}
      />
    </Section>
  );
}

type TPick = (drill: { query: TOverviewAccountsQuery; title: string }) => void;

function Charts({ data, onPick }: { data: TOverview; onPick: TPick }) {
  const months = data.months.map((month) => month.month);
  const categories = months.map((month) => ({ key: month, label: monthLabel(month) }));
  const range = `${months[0]}-to-${months.at(-1)}`;
  const monthly = (figure: TOverviewFigure, title: string, detail?: string) => (month: string) =>
    onPick({
      query: { figure, month, ...(detail ? { detail } : {}) },
      title: `${title}, ${monthLabel(month)}`,
    });
  const reasons = [
    ...new Set(data.months.flatMap((month) => Object.keys(month.churnByReason))),
  ].sort();
  const mrr = data.months.map((month) => month.mrrCents);
  const revenue = data.months.map((month) => month.revenue.revenueCents);
  const recovery = data.months.map((month) => month.recoveryRatePercent);
  return (
    <div className="overview-charts">
      <OverviewChart
        title="MRR at each month's end"
        kind="line"
        categories={categories}
        series={[{ key: 'mrr', label: 'MRR', values: mrr, color: COLORS.blue }]}
        unit="dollars"
        xLabel="Month"
        yLabel="MRR (US dollars)"
        summary={trend('MRR', mrr, months, 'dollars')}
        csvName={`mrr-${range}`}
        onPick={(month) => monthly('mrr', 'MRR')(month)}
      />
      <OverviewChart
        title="Gross revenue per month"
        kind="bar"
        categories={categories}
        series={[
          {
            key: 'payments',
            label: 'Payments',
            values: data.months.map((month) => month.revenue.paymentsCents),
            color: COLORS.blue,
          },
          {
            key: 'refunds',
            label: 'Refunds',
            values: data.months.map((month) => month.revenue.refundsCents),
            color: COLORS.orange,
            below: true,
          },
          {
            key: 'chargebacks',
            label: 'Chargebacks',
            values: data.months.map((month) => month.revenue.chargebacksCents),
            color: COLORS.red,
            below: true,
          },
          {
            key: 'returnedChecks',
            label: 'Returned checks',
            values: data.months.map((month) => month.revenue.returnedChecksCents),
            color: COLORS.purple,
            below: true,
          },
          { key: 'revenue', label: 'Gross revenue', values: revenue, color: COLORS.green },
        ]}
        unit="dollars"
        xLabel="Month"
        yLabel="Amount (US dollars)"
        summary={trend('Gross revenue', revenue, months, 'dollars')}
        csvName={`revenue-${range}`}
        onPick={(month, key) =>
          monthly(key === 'revenue' ? 'payments' : (key as TOverviewFigure), 'Revenue')(month)
        }
      />
      <OverviewChart
        title="New, reactivated and churned accounts"
        kind="bar"
        categories={categories}
        series={[
          {
            key: 'new',
            label: 'New',
            values: data.months.map((month) => month.newAccounts),
            color: COLORS.blue,
          },
          {
            key: 'reactivated',
            label: 'Reactivated',
            values: data.months.map((month) => month.reactivated),
            color: COLORS.green,
          },
          {
            key: 'churned',
            label: 'Churned',
            values: data.months.map((month) => month.churned),
            color: COLORS.red,
          },
        ]}
        unit="accounts"
        xLabel="Month"
        yLabel="Accounts"
        summary={`${trend(
          'New accounts',
          data.months.map((m) => m.newAccounts),
          months,
          'accounts',
        )} ${trend(
          'Churned accounts',
          data.months.map((m) => m.churned),
          months,
          'accounts',
        )}`}
        csvName={`accounts-${range}`}
        onPick={(month, key) => monthly(key as TOverviewFigure, 'Accounts')(month)}
      />
      <OverviewChart
        title="Churn by cause"
        kind="bar"
        categories={categories}
        series={CHURN_CAUSES.map((cause, index) => ({
          key: cause,
          label: CHURN_CAUSE_LABELS[cause],
          values: data.months.map((month) => month.churnByCause[cause] ?? 0),
          color: [COLORS.orange, COLORS.red, COLORS.purple, COLORS.slate][index]!,
        }))}
        unit="accounts"
        xLabel="Month"
        yLabel="Churned accounts"
        summary={CHURN_CAUSES.map(
          (cause) =>
            `${CHURN_CAUSE_LABELS[cause]}: ${data.months.reduce((sum, month) => sum + (month.churnByCause[cause] ?? 0), 0)}.`,
        ).join(' ')}
        csvName={`churn-by-cause-${range}`}
        onPick={(month, cause) =>
          monthly(
            'churned',
            CHURN_CAUSE_LABELS[cause as keyof typeof CHURN_CAUSE_LABELS],
            cause,
          )(month)
        }
      />
      {reasons.length > 0 ? (
        <OverviewChart
          title="Cancellations by reason"
          kind="bar"
          categories={reasons.map((reason) => ({
            key: reason,
            label: CANCELLATION_REASON_LABELS[reason] ?? 'No reason given',
          }))}
          series={[
            {
              key: 'count',
              label: 'Cancellations',
              values: reasons.map((reason) =>
                data.months.reduce((sum, month) => sum + (month.churnByReason[reason] ?? 0), 0),
              ),
              color: COLORS.orange,
            },
          ]}
          unit="accounts"
          xLabel="Reason"
          yLabel="Churned accounts"
          summary={reasons
            .map(
              (reason) =>
                `${CANCELLATION_REASON_LABELS[reason] ?? 'No reason given'}: ${data.months.reduce((sum, month) => sum + (month.churnByReason[reason] ?? 0), 0)}.`,
            )
            .join(' ')}
          csvName={`cancellation-reasons-${range}`}
          onPick={(reason) =>
            onPick({
              query: { figure: 'churned', month: months[0]!, to: months.at(-1)!, detail: reason },
              title: `Cancelled: ${CANCELLATION_REASON_LABELS[reason] ?? reason}`,
            })
          }
        />
      ) : null}
      <OverviewChart
        title="Dunning recovery rate"
        kind="line"
        categories={categories}
        series={[{ key: 'rate', label: 'Recovered', values: recovery, color: COLORS.purple }]}
        unit="percent"
        xLabel="Month the renewal failed"
        yLabel="Recovered (%)"
        summary={trend('Dunning recovery', recovery, months, 'percent')}
        csvName={`dunning-recovery-${range}`}
        onPick={(month) => monthly('dunningEntered', 'Entered dunning')(month)}
      />
      <OverviewChart
        title="Revenue by product group"
        kind="bar"
        categories={data.revenueByGroup.map((row) => ({ key: row.group, label: row.group }))}
        series={[
          {
            key: 'cents',
            label: 'Payments',
            values: data.revenueByGroup.map((row) => row.cents),
            color: COLORS.blue,
          },
        ]}
        unit="dollars"
        xLabel="Product group"
        yLabel="Payments (US dollars)"
        summary={
          data.revenueByGroup.map((row) => `${row.group}: ${money(row.cents)}.`).join(' ') ||
          'No payments in this period.'
        }
        csvName={`revenue-by-group-${range}`}
        onPick={(group) =>
          onPick({
            query: { figure: 'item', month: months[0]!, to: months.at(-1)!, detail: group },
            title: `Bought ${group}`,
          })
        }
      />
      <OverviewChart
        title="Revenue by item"
        kind="bar"
        categories={data.revenueByItem.map((row) => ({
          key: row.code,
          label:
            row.code === 'PLATFORM_FEE' ? 'Fee' : row.code === 'ADJUSTMENT' ? 'Adj.' : row.code,
        }))}
        series={[
          {
            key: 'cents',
            label: 'Payments',
            values: data.revenueByItem.map((row) => row.cents),
            color: COLORS.green,
          },
        ]}
        unit="dollars"
        xLabel="Item"
        yLabel="Payments (US dollars)"
        summary={
          data.revenueByItem.map((row) => `${row.name}: ${money(row.cents)}.`).join(' ') ||
          'No payments in this period.'
        }
        csvName={`revenue-by-item-${range}`}
        onPick={(code) =>
          onPick({
            query: { figure: 'item', month: months[0]!, to: months.at(-1)!, detail: code },
            title: `Bought ${data.revenueByItem.find((row) => row.code === code)?.name ?? code}`,
          })
        }
      />
    </div>
  );
}

function DrillDown({
  query,
  title,
  onClose,
}: {
  query: TOverviewAccountsQuery;
  title: string;
  onClose: () => void;
}) {
  const accounts = useOverviewAccounts(query);
  return (
    <Section
      title={`Accounts: ${title}`}
      actions={
        <button type="button" className="button button--secondary" onClick={onClose}>
          Close list
        </button>
      }
    >
      <QueryState
        query={accounts}
        loading="Loading the accounts…"
        failed="The accounts could not be loaded."
        isEmpty={(data) => data.accounts.length === 0}
        empty="No account is behind this figure."
      >
        {(data) => (
          <>
            <p className="admin-muted" role="status">
              {data.total > data.accounts.length
                ? `${data.accounts.length} of ${data.total} accounts, largest first.`
                : `${data.total} ${data.total === 1 ? 'account' : 'accounts'}.`}
            </p>
            <TableRegion label={`Accounts: ${title}`}>
              <table className="admin-table">
                <thead>
                  <tr>
                    <th scope="col">Dealership</th>
                    <th scope="col">E-mail</th>
                    <th scope="col">Status</th>
                    <th scope="col">Amount</th>
                  </tr>
                </thead>
                <tbody>
                  {data.accounts.map((account) => (
                    <tr key={account.userId}>
                      <th scope="row">
                        <Link to={`/admin/accounts/${encodeURIComponent(account.userId)}`}>
                          {account.dealership || account.email}
                        </Link>
                      </th>
                      <td>{account.email}</td>
                      <td>
                        <StatusLabel status={account.status} />
                      </td>
                      <td className="admin-amount">{money(account.cents)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableRegion>
          </>
        )}
      </QueryState>
    </Section>
  );
}
