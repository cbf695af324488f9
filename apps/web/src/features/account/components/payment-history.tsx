import { useDeferredValue, useState } from 'react';
import {
  defaultHistoryYear,
  noReceiptsMessage,
  paymentHistoryYears,
  receiptFileName,
  refundReceiptFileName,
  sortPaymentsNewestFirst,
  yearZipFileName,
} from '@dealerpass/domain/billing/payment-history';
import { BILLING_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import { formatDollars } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField } from '../../../components/ui/fields.tsx';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { useToast } from '../../../components/ui/toast.tsx';
import { runtimeConfig } from '../../../lib/runtime-config.ts';
import { downloadYearReceipts } from '../api/download-year-receipts.ts';
import { usePaymentHistory } from '../api/get-payment-history.ts';
import { businessTimeZone } from '../business-time.ts';
import { pdfFromBase64, saveFile } from '../save-file.ts';

/**
 * Payment History (000 §2, §4, §8, §9; DECISIONS R9): the year selector (last 5 years, none before
 * 2020, the current year first and chosen), the table newest first with a receipt download per
 * row, Download Year, the empty-year message and a visible error state.
 */
export function PaymentHistory() {
  const toast = useToast();
  const [now] = useState(() => new Date());
  const zone = businessTimeZone();
  const years = paymentHistoryYears(now, zone);
  const [year, setYear] = useState(() => defaultHistoryYear(now, zone));
  const { state: loaded, reload } = usePaymentHistory(year);
  // The table is rendered in slices React can interrupt once the year arrives (decision 027).
  const state = useDeferredValue(loaded);
  const [zipping, setZipping] = useState(false);

  const downloadYear = async () => {
    setZipping(true);
    try {
      saveFile(await downloadYearReceipts(year), yearZipFileName(year));
    } catch {
      toast.error();
    } finally {
      setZipping(false);
    }
  };

  const payments = state.status === 'ready' ? sortPaymentsNewestFirst(state.payments) : [];
  // A short line is announced when the year's payments arrive; the table itself is not live, so
  // changing the year does not make a screen reader read every row.
  const announcement =
    state.status !== 'ready'
      ? ''
      : payments.length === 0
        ? `No payments in ${year}.`
        : `${payments.length} ${payments.length === 1 ? 'payment' : 'payments'} in ${year}.`;
  return (
    <section className="card billing-section" aria-labelledby="payment-history-title">
      <h2 id="payment-history-title">Payment History</h2>
      <div className="history-controls">
        <SelectField
          id="history-year"
          label="Year"
          value={String(year)}
          onChange={(event) => setYear(Number(event.target.value))}
          options={years.map((y) => ({ value: String(y), label: String(y) }))}
        />
        <Button
          variant="secondary"
          onClick={downloadYear}
          busy={zipping}
          disabled={state.status !== 'ready' || payments.length === 0}
        >
          {BILLING_TEXTS.downloadYear}
        </Button>
      </div>
      <p className="visually-hidden" role="status" data-testid="history-status">
        {announcement}
      </p>
      <div aria-busy={state.status === 'loading'}>
        {state.status === 'loading' ? (
          <p className="page-loading" role="status">
            <span className="spinner" aria-hidden="true" />
            <span>Loading payments…</span>
          </p>
        ) : state.status === 'error' ? (
          <div role="alert" className="account-notice" data-testid="history-error">
            <p>Your payment history could not be loaded. Please try again.</p>
            <Button variant="secondary" onClick={reload}>
              Try again
            </Button>
          </div>
        ) : payments.length === 0 ? (
          <p data-testid="history-empty">{noReceiptsMessage(year, runtimeConfig().supportPhone)}</p>
        ) : (
          <TableRegion label={`Payments in ${year}`}>
            <table className="history-table" data-testid="history-table">
              <caption className="visually-hidden">Payments in {year}, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Paid With</th>
                  <th scope="col">Amount</th>
                  <th scope="col">
                    <span className="visually-hidden">Receipt</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {payments.map((payment, index) => {
                  const date = formatCalendarDate(parseIsoDate(payment.activationDate));
                  return (
                    <tr key={`${payment.activationDate}-${index}`}>
                      <td>{date}</td>
                      <td>{payment.paidWith}</td>
                      <td className="history-table__amount">
                        {formatDollars(payment.amount)}
                        {/* R12: a payment staff refunded (part of) says so on its own row. */}
                        {payment.refundedAmount ? (
                          <span className="history-table__refunded" data-testid="history-refunded">
                            Refunded {formatDollars(payment.refundedAmount)}
                          </span>
                        ) : null}
                      </td>
                      <td>
                        <Button
                          variant="link"
                          aria-label={`Download receipt of ${date}`}
                          onClick={() =>
                            saveFile(
                              pdfFromBase64(payment.receiptBlob),
                              receiptFileName(payment.activationDate),
                            )
                          }
                        >
                          Download
                        </Button>
                        {payment.refunds?.map((refund, refundIndex) => {
                          const refunded = formatCalendarDate(parseIsoDate(refund.refundDate));
                          return (
                            <Button
                              key={`${refund.refundDate}-${refundIndex}`}
                              variant="link"
                              className="history-table__refund-receipt"
                              aria-label={`Download refund receipt of ${refunded}, ${formatDollars(refund.amount)}`}
                              onClick={() =>
                                saveFile(
                                  pdfFromBase64(refund.receiptBlob),
                                  refundReceiptFileName(refund.refundDate),
                                )
                              }
                            >
                              Refund receipt
                            </Button>
                          );
                        })}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableRegion>
        )}
      </div>
    </section>
  );
}
