import { paidWithText, paymentPaidWith } from '@dealerpass/domain/billing/receipt-text';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import type { ReactNode } from 'react';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { takePaymentAction } from '../api/take-account-action.ts';
import { useMayTake } from '../staff-member.tsx';
import { ActionButton, type IActionOutcome } from './action-dialog.tsx';
import { businessDate, dateTime, money } from './format.ts';
import { Empty, Facts, Section } from './section.tsx';

type TDetail = TStaffAccountDetail;
type TPayment = TDetail['payments'][number];

const REFUNDABLE_STATUS = 'succeeded';

/**
 * Payments with their receipts and what has been refunded of each; billing staff refund (up to
 * what is left, R12) or record a chargeback from here.
 */
export function PaymentsSection({
  userId,
  payments,
  refunds,
  onChanged,
}: {
  userId: string;
  payments: TDetail['payments'];
  refunds: TDetail['refunds'];
  onChanged: (outcome: IActionOutcome) => void;
}) {
  const mayTake = useMayTake();
  const showActions = mayTake('refund') || mayTake('chargeback');
  return (
    <Section title="Payments" id="admin-payments">
      {payments.length === 0 ? (
        <Empty>No payments.</Empty>
      ) : (
        <TableRegion label="Payments">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Amount</th>
                <th scope="col">Refunded</th>
                <th scope="col">Status</th>
                <th scope="col">Card</th>
                <th scope="col">Transaction</th>
                <th scope="col">Receipt</th>
                {showActions ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {payments.map((payment) => (
                <tr key={payment.paymentId} data-testid={`payment-${payment.paymentId}`}>
                  <td>{businessDate(payment.activationDate)}</td>
                  <td className="admin-amount">{money(payment.amountCents)}</td>
                  <td className="admin-amount" data-testid="payment-refunded">
                    {payment.refundedCents > 0 ? money(payment.refundedCents) : '—'}
                  </td>
                  <td>
                    {payment.status}
                    {payment.chargedBackAt ? (
                      <>, charged back {dateTime(payment.chargedBackAt)}</>
                    ) : null}
                  </td>
                  <td>{paymentPaidWith(payment)}</td>
                  <td className="admin-mono admin-wrap admin-wrap--id">
                    {payment.gatewayTransactionId}
                  </td>
                  <td>
                    <a href={payment.receiptUrl} download={`${payment.activationDate}-payment.pdf`}>
                      Receipt
                      <span className="visually-hidden">
                        {' '}
                        of {businessDate(payment.activationDate)}
                      </span>
                    </a>
                  </td>
                  {showActions ? (
                    <td>
                      <PaymentActions userId={userId} payment={payment} onChanged={onChanged} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      <h3>Refunds</h3>
      {refunds.length === 0 ? (
        <Empty>No refunds.</Empty>
      ) : (
        <TableRegion label="Refunds">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Requested</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Reason</th>
                <th scope="col">Settled</th>
              </tr>
            </thead>
            <tbody>
              {refunds.map((refund) => (
                <tr key={refund.refundId}>
                  <td>{dateTime(refund.createdAt)}</td>
                  <td className="admin-amount">{money(refund.amountCents)}</td>
                  <td>
                    {refund.status}
                    {refund.failureReason ? ` (${refund.failureReason})` : ''}
                  </td>
                  <td className="admin-wrap">{refund.reason}</td>
                  <td>{dateTime(refund.settledAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

function PaymentActions({
  userId,
  payment,
  onChanged,
}: {
  userId: string;
  payment: TPayment;
  onChanged: (outcome: IActionOutcome) => void;
}) {
  const mayTake = useMayTake();
  // What the server counts as refundable (in-flight refunds, the trial's claim, a chargeback).
  const left = payment.refundableCents;
  const when = businessDate(payment.activationDate);
  return (
    <div className="admin-row-actions">
      {mayTake('refund') && left > 0 ? (
        <ActionButton
          spec={{
            label: 'Refund',
            title: `Refund the payment of ${when}`,
            description: (
              <p>
                The refund goes back to the {paidWithText(payment.cardBrand, payment.cardLast4)}{' '}
                through the gateway, once. {money(left)} of {money(payment.amountCents)} can still
                be refunded. The dealer is e-mailed a refund receipt.
              </p>
            ),
            confirmLabel: 'Refund',
            danger: true,
            amount: { label: 'Amount to refund', maxCents: left, defaultCents: left },
            done: 'The refund went through.',
          }}
          run={({ requestKey, reason, amountCents }) =>
            takePaymentAction(userId, payment.paymentId, 'refund', {
              requestKey,
              reason,
              amountCents,
            })
          }
          onDone={onChanged}
        />
      ) : null}
      {mayTake('chargeback') && payment.status === REFUNDABLE_STATUS && !payment.chargedBackAt ? (
        <ActionButton
          spec={{
            label: 'Record chargeback',
            title: `Record a chargeback of the payment of ${when}`,
            description: chargebackDescription(payment),
            confirmLabel: 'Record chargeback',
            danger: true,
            done: 'The chargeback was recorded.',
          }}
          run={({ requestKey, reason }) =>
            takePaymentAction(userId, payment.paymentId, 'chargeback', { requestKey, reason })
          }
          onDone={onChanged}
        />
      ) : null}
    </div>
  );
}

/**
 * What a chargeback of this payment would record (R15): it covers only what was not refunded;
 * a payment refunded in full is not charged back, and staff contest the dispute instead.
 */
function chargebackDescription(payment: TPayment): ReactNode {
  const covered = payment.amountCents - payment.refundedCents;
  if (covered <= 0) {
    return <p role="note">{errorMessage(ERROR_CODES.CHARGEBACK_REFUNDED_IN_FULL)}</p>;
  }
  return (
    <p>
      The card network took this payment back
      {payment.refundedCents > 0
        ? `: ${money(covered)}, what was not refunded (${money(payment.refundedCents)} was)`
        : ''}
      . The account becomes inactive and the reactivation fee of {money(CHARGEBACK_FEE_CENTS)} is
      added to its balance.
    </p>
  );
}

export function DeclinesSection({
  declines,
  retries,
}: {
  declines: TDetail['declines'];
  retries: TDetail['retries'];
}) {
  return (
    <Section title="Declines and retries">
      {declines.length === 0 ? (
        <Empty>No declined charges.</Empty>
      ) : (
        <TableRegion label="Declined charges">
          <table className="admin-table">
            <caption>Declined charges</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Charge</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {declines.map((decline, index) => (
                <tr key={`${decline.at}-${index}`}>
                  <td>{dateTime(decline.at)}</td>
                  <td>{decline.kind}</td>
                  <td className="admin-wrap">{decline.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
      {retries.length === 0 ? (
        <Empty>No renewal needed a retry.</Empty>
      ) : (
        <TableRegion label="Retried periods">
          <table className="admin-table">
            <caption>Retried periods</caption>
            <thead>
              <tr>
                <th scope="col">Period</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">Status</th>
                <th scope="col">Charges tried</th>
              </tr>
            </thead>
            <tbody>
              {retries.map((retry) => (
                <tr key={retry.periodId}>
                  <td>
                    {businessDate(retry.periodStart)} to {businessDate(retry.periodEnd)}
                  </td>
                  <td>{retry.kind}</td>
                  <td className="admin-amount">{money(retry.amountCents)}</td>
                  <td>{retry.status}</td>
                  <td>{retry.attempts}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

/** The balance (positive owed, negative credit, R4) and its ledger entries. */
export function BalanceSection({
  balance,
  actions,
}: {
  balance: TDetail['balance'];
  actions?: ReactNode;
}) {
  return (
    <Section title="Balance" actions={actions}>
      <Facts
        items={[
          [
            'Current balance',
            <span data-testid="admin-balance">
              {money(balance.cents)}
              {balance.cents < 0 ? ' (credit)' : balance.cents > 0 ? ' (owed)' : ''}
            </span>,
          ],
        ]}
      />
      {balance.entries.length === 0 ? (
        <Empty>No balance entries.</Empty>
      ) : (
        <TableRegion label="Balance entries">
          <table className="admin-table">
            <caption>Ledger entries</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col">Amount</th>
                <th scope="col">Source</th>
              </tr>
            </thead>
            <tbody>
              {balance.entries.map((entry) => (
                <tr key={entry.source}>
                  <td>{dateTime(entry.at)}</td>
                  <td>{entry.kind}</td>
                  <td className="admin-amount">{money(entry.amountCents)}</td>
                  <td className="admin-mono">{entry.source}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}
