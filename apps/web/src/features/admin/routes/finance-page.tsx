import { useId, useState } from 'react';
import {
  FINANCE_EXPORT_MAX_DAYS,
  ZFinanceExportQuerySchema,
  financeExportRange,
  type TFinanceExportQuery,
} from '@dealerpass/domain/admin/finance-export';
import { SubmitButton } from '../../../components/ui/button.tsx';
import { ErrorSummary, useErrorSummary } from '../../../components/ui/error-summary.tsx';
import { TextField } from '../../../components/ui/fields.tsx';
import { financeExportUrl } from '../api/finance-export-url.ts';
import { businessDate } from '../components/format.ts';
import { Section } from '../components/section.tsx';
import { useRoleAllows } from '../staff-member.tsx';
import { useAdminTitle } from '../use-admin-title.ts';

type TMode = 'month' | 'range';

/** This month as YYYY-MM in the browser's calendar: only the form's starting value. */
function thisMonth(): string {
  const now = new Date();
  return `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, '0')}`;
}

/**
 * Finance (/admin/finance, billing and admin; issue 29): every payment, refund and chargeback of
 * a month or a range of business dates as one CSV file, downloaded as it is written.
 */
export default function FinancePage() {
  useAdminTitle('Finance');
  const allowed = useRoleAllows('billing');
  const id = useId();
  const ids = { month: `${id}-month`, from: `${id}-from`, to: `${id}-to` };
  const summary = useErrorSummary();
  const [mode, setMode] = useState<TMode>('month');
  const [month, setMonth] = useState(thisMonth);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [errors, setErrors] = useState<Partial<Record<'month' | 'from' | 'to', string>>>({});
  const [started, setStarted] = useState<string | null>(null);

  if (!allowed) {
    return (
      <div className="admin-page">
        <h1>Finance</h1>
        <p className="admin-problem" role="alert">
          The finance export is for billing and admin staff.
        </p>
      </div>
    );
  }

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    setStarted(null);
    const query: TFinanceExportQuery = mode === 'month' ? { month } : { from, to };
    const checked = ZFinanceExportQuerySchema.safeParse(query);
    if (!checked.success) {
      const found: typeof errors = {};
      for (const issue of checked.error.issues) {
        const field = (issue.path[0] === 'month' && mode === 'range' ? 'from' : issue.path[0]) as
          'month' | 'from' | 'to';
        found[field] ??= issue.message;
      }
      setErrors(found);
      summary.show(
        'The file was not downloaded',
        Object.entries(found).map(([field, message]) => ({
          message: message!,
          fieldId: ids[field as keyof typeof ids],
        })),
      );
      return;
    }
    setErrors({});
    summary.clear();
    // The browser saves the answer as a file (an attachment) and stays on this page.
    const link = document.createElement('a');
    link.href = financeExportUrl(checked.data);
    link.download = '';
    document.body.append(link);
    link.click();
    link.remove();
    const range = financeExportRange(checked.data);
    setStarted(
      `The download of ${businessDate(range.from)} to ${businessDate(range.to)} has started.`,
    );
  };

  return (
    <div className="admin-page">
      <h1>Finance</h1>
      <Section title="Money movements as CSV">
        <p>
          One row per payment, refund and chargeback, with the account, the dealership, the items,
          the amount in dollars and which way it went, the gateway’s transaction id and the business
          date. Exports are kept in the audit log.
        </p>
        <form onSubmit={submit} noValidate className="admin-form admin-finance-form">
          <ErrorSummary {...summary.props} />
          <fieldset className="choice-group">
            <legend className="choice-group__legend">Period</legend>
            {(
              [
                ['month', 'A month'],
                ['range', `A range of dates (at most ${FINANCE_EXPORT_MAX_DAYS} days)`],
              ] as const
            ).map(([value, label]) => (
              <div className="choice" key={value}>
                <input
                  type="radio"
                  id={`${id}-mode-${value}`}
                  name={`${id}-mode`}
                  value={value}
                  checked={mode === value}
                  onChange={() => {
                    setMode(value);
                    setErrors({});
                  }}
                />
                <label htmlFor={`${id}-mode-${value}`}>{label}</label>
              </div>
            ))}
          </fieldset>
          {mode === 'month' ? (
            <TextField
              id={ids.month}
              label="Month"
              // Text, not type="month": not every browser has a month picker, and the hint says how.
              inputMode="numeric"
              autoComplete="off"
              hint="As YYYY-MM, e.g. 2026-03."
              required
              value={month}
              onChange={(event) => setMonth(event.target.value)}
              error={errors.month}
            />
          ) : (
            <>
              <TextField
                id={ids.from}
                label="First date"
                type="date"
                required
                value={from}
                onChange={(event) => setFrom(event.target.value)}
                error={errors.from}
              />
              <TextField
                id={ids.to}
                label="Last date (included)"
                type="date"
                required
                value={to}
                onChange={(event) => setTo(event.target.value)}
                error={errors.to}
              />
            </>
          )}
          <div className="form-actions">
            <SubmitButton>Download CSV</SubmitButton>
          </div>
          {started ? (
            <p role="status" data-testid="finance-started">
              {started}
            </p>
          ) : null}
        </form>
      </Section>
    </div>
  );
}
