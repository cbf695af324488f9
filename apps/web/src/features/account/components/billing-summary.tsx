import { billingSummaryView } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import { annualPeriodSummary } from '@dealerpass/domain/messages/ui-texts';
import { formatDollars } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { statusDescriptionOf } from '../account-status.ts';
import { useAnnualBilling } from '../api/get-annual-billing.ts';
import { useCurrentUser } from '../current-user.tsx';

/**
 * Billing Summary (000 §2, §4; DECISIONS R4): the status description, Next Billing Cycle
 * ('MMM DD, YYYY' or N/A, hidden for inactive accounts) and Current Balance ($, leading minus,
 * or N/A; hidden for complimentary accounts). The "not fully operational" message of a
 * validating-payment account is the account layout's (NotOperationalNotice), above every page.
 * On an annual period paid by check (R14) it says so, and Next Billing Cycle is the period's end.
 */
export function BillingSummary() {
  const { user } = useCurrentUser();
  const flags = accountFlags(user);
  const view = billingSummaryView(flags);
  // The annual period comes with the annual-billing answer; until it arrives (or if it fails) the
  // summary shows the monthly figures it has.
  const annualPeriod = useAnnualBilling().data?.annualPeriod ?? null;
  const nextBillIso = annualPeriod?.end ?? user.nextBillDate;
  const nextBill = typeof nextBillIso === 'string' ? parseIsoDate(nextBillIso) : null;
  const balance = typeof user.currentBalance === 'number' ? user.currentBalance : null;
  return (
    <section className="card billing-section" aria-labelledby="billing-summary-title">
      <h2 id="billing-summary-title">Billing Summary</h2>
      <dl className="account-facts" data-testid="billing-summary">
        <div>
          <dt>Status</dt>
          <dd data-testid="summary-status">{statusDescriptionOf(user)}</dd>
        </div>
        {annualPeriod ? (
          <div>
            <dt>Billing</dt>
            <dd data-testid="summary-annual">
              {annualPeriodSummary(formatCalendarDate(parseIsoDate(annualPeriod.end)))}
            </dd>
          </div>
        ) : null}
        {view.showNextBillingCycle ? (
          <div>
            <dt>Next Billing Cycle</dt>
            <dd data-testid="summary-next-billing">{formatCalendarDate(nextBill)}</dd>
          </div>
        ) : null}
        {view.showCurrentBalance ? (
          <div>
            <dt>Current Balance</dt>
            <dd data-testid="summary-balance">{formatDollars(balance)}</dd>
          </div>
        ) : null}
      </dl>
    </section>
  );
}
