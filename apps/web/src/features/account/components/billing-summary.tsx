import { billingSummaryView } from '@dealerpass/domain/account/billing-view';
import { accountFlags } from '@dealerpass/domain/account/status';
import { formatDollars } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { statusDescriptionOf } from '../account-status.ts';
import { useCurrentUser } from '../current-user.tsx';

/**
 * Billing Summary (000 §2, §4; DECISIONS R4): the status description, Next Billing Cycle
 * ('MMM DD, YYYY' or N/A, hidden for inactive accounts) and Current Balance ($, leading minus,
 * or N/A; hidden for complimentary accounts). The "not fully operational" message of a
 * validating-payment account is the account layout's (NotOperationalNotice), above every page.
 */
export function BillingSummary() {
  const { user } = useCurrentUser();
  const flags = accountFlags(user);
  const view = billingSummaryView(flags);
  const nextBill = typeof user.nextBillDate === 'string' ? parseIsoDate(user.nextBillDate) : null;
  const balance = typeof user.currentBalance === 'number' ? user.currentBalance : null;
  return (
    <section className="card billing-section" aria-labelledby="billing-summary-title">
      <h2 id="billing-summary-title">Billing Summary</h2>
      <dl className="account-facts" data-testid="billing-summary">
        <div>
          <dt>Status</dt>
          <dd data-testid="summary-status">{statusDescriptionOf(user)}</dd>
        </div>
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
