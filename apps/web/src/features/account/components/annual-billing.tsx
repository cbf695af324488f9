import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import type {
  IAnnualOffer,
  IInvoice,
  TInvoiceStatus,
} from '@dealerpass/domain/schemas/annual-billing';
import { ANNUAL_BILLING_TEXTS } from '@dealerpass/domain/messages/ui-texts';
import { formatCurrency } from '@dealerpass/domain/money';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { failureMessage } from '../../../lib/error-text.ts';
import { useRequestKey } from '../../../lib/use-request-key.ts';
import { downloadInvoice, invoiceFileName } from '../api/download-invoice.ts';
import { invalidateAnnualBilling, useAnnualBilling } from '../api/get-annual-billing.ts';
import { requestAnnualBilling } from '../api/request-annual-billing.ts';
import { voidOwnInvoice } from '../api/void-own-invoice.ts';
import { saveFile } from '../save-file.ts';

const T = ANNUAL_BILLING_TEXTS;

/** The server's refusal of an offer that changed since the page showed it. */
const OFFER_CHANGED = 'ANNUAL_OFFER_CHANGED';

/** A business date (YYYY-MM-DD) as the billing page writes dates ('MMM DD, YYYY'). */
export function day(iso: string | null | undefined): string {
  return formatCalendarDate(iso ? parseIsoDate(iso) : null);
}

const STATUS_LABELS: Record<TInvoiceStatus, string> = {
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
};

/** What the last action came to, as the server answered it; only `done` is green. */
interface IMessage {
  text: string;
  failed: boolean;
  id: number;
}

/**
 * Annual payment by check with the 10 % discount (R14, issue 28) on Billing Details: the offer
 * with its figures and a confirmation, or the open invoice with "Download invoice" and "Keep
 * paying monthly by card", the annual period paid by check, and the dealer's invoices. Every
 * message says what the server answered; a refusal is never shown as a success.
 */
export function AnnualBilling() {
  const query = useAnnualBilling();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<IMessage | null>(null);
  const messageRef = useRef<HTMLParagraphElement>(null);
  const next = useRef(0);
  // The button that started an action is often gone after it (the offer becomes an invoice, the
  // invoice a new offer): the message that reports the outcome takes focus, never <body>.
  useEffect(() => {
    if (message) messageRef.current?.focus();
  }, [message]);

  const report = (text: string, failed: boolean) => {
    next.current += 1;
    setMessage({ text, failed, id: next.current });
  };
  const changed = async (text: string) => {
    await invalidateAnnualBilling(queryClient).catch(() => undefined);
    report(text, false);
  };

  const download = async (invoice: IInvoice) => {
    try {
      saveFile(await downloadInvoice(invoice.id), invoiceFileName(invoice.number));
    } catch (error) {
      report(`The invoice could not be downloaded. ${failureMessage(error)}`, true);
    }
  };

  let content;
  if (query.isPending) {
    content = (
      <p className="page-loading" role="status">
        <span className="spinner" aria-hidden="true" />
        <span>Loading annual billing…</span>
      </p>
    );
  } else if (query.isError) {
    content = (
      <div role="alert" className="account-notice" data-testid="annual-error">
        <p>Annual billing could not be loaded. {failureMessage(query.error)}</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  } else {
    const state = query.data;
    content = (
      <>
        {state.annualPeriod ? (
          <p data-testid="annual-period">
            Your account is billed annually by check, paid through {day(state.annualPeriod.end)}.
            {state.openInvoice
              ? null
              : ' The next year’s invoice is issued 45 days before the period ends.'}
          </p>
        ) : null}
        {state.openInvoice ? (
          <OpenInvoice
            invoice={state.openInvoice}
            onDownload={() => void download(state.openInvoice!)}
            onVoided={(invoice) =>
              changed(
                `Invoice ${invoice.number} was voided. Your card goes on being billed monthly.`,
              )
            }
          />
        ) : state.offer ? (
          <AnnualOffer
            offer={state.offer}
            onIssued={(invoice) =>
              changed(
                `Invoice ${invoice.number} for ${formatCurrency(invoice.totalCents)} was issued and e-mailed to you. It is due ${day(invoice.dueOn)}.`,
              )
            }
          />
        ) : state.ineligibleReason && !state.annualPeriod ? (
          <p data-testid="annual-ineligible">{state.ineligibleReason}</p>
        ) : null}
        <InvoiceList invoices={state.invoices} onDownload={(invoice) => void download(invoice)} />
      </>
    );
  }

  return (
    <section
      className="card billing-section annual-billing"
      aria-labelledby="annual-billing-title"
      data-testid="annual-billing"
    >
      <h2 id="annual-billing-title">{T.heading}</h2>
      <div role="status">
        {message && !message.failed ? (
          <p
            key={message.id}
            ref={messageRef}
            tabIndex={-1}
            className="account-notice account-notice--success"
            data-testid="annual-message"
          >
            {message.text}
          </p>
        ) : null}
      </div>
      <div role="alert">
        {message?.failed ? (
          <p
            key={message.id}
            ref={messageRef}
            tabIndex={-1}
            className="account-notice"
            data-testid="annual-message"
          >
            {message.text}
          </p>
        ) : null}
      </div>
      {content}
    </section>
  );
}

/** The offer (R14): a year at today's prices, the discounted price, the start and the remit-to. */
function AnnualOffer({
  offer,
  onIssued,
}: {
  offer: IAnnualOffer;
  onIssued: (invoice: IInvoice) => Promise<void>;
}) {
  const queryClient = useQueryClient();
  const keys = useRequestKey();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const savedCents = offer.yearTotalCents - offer.discountedTotalCents;
  const start = day(offer.periodStart);

  const confirm = async () => {
    setBusy(true);
    setProblem(null);
    try {
      // One key per intent (decision 031): a double click or a resend after a lost answer issues
      // one invoice.
      // Based on the offer shown: a start or amount changed since is refused (409), never
      // invoiced unseen; the page then shows the offer as it is now.
      const basedOn = {
        periodStart: offer.periodStart,
        discountedTotalCents: offer.discountedTotalCents,
      };
      const { invoice } = await requestAnnualBilling({
        requestKey: keys.keyFor(basedOn),
        basedOn,
      });
      keys.settle(undefined);
      await onIssued(invoice);
      setConfirming(false);
    } catch (error) {
      keys.settle(error);
      setProblem(failureMessage(error));
      if (error instanceof ApiError && error.code === OFFER_CHANGED) {
        await invalidateAnnualBilling(queryClient).catch(() => undefined);
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="annual-offer" data-testid="annual-offer">
      <h3>{T.offer}</h3>
      <dl className="account-facts annual-figures">
        <div>
          <dt>A year at today’s prices</dt>
          <dd data-testid="annual-year-total">
            {formatCurrency(offer.yearTotalCents)}{' '}
            <span className="annual-figures__note">
              (12 × {formatCurrency(offer.monthlyTotalCents)} a month, platform fee included)
            </span>
          </dd>
        </div>
        <div>
          <dt>Paid annually by check</dt>
          <dd data-testid="annual-discounted-total">
            <strong>{formatCurrency(offer.discountedTotalCents)}</strong>{' '}
            <span className="annual-figures__note">(you save {formatCurrency(savedCents)})</span>
          </dd>
        </div>
        <div>
          <dt>Annual period would start</dt>
          <dd data-testid="annual-period-start">{start}</dd>
        </div>
      </dl>
      <p>
        We e-mail you an invoice due on {start}. Until your check arrives nothing changes: your card
        is billed monthly as usual.
      </p>
      <RemitTo offer={offer} />
      <Button aria-haspopup="dialog" onClick={() => setConfirming(true)}>
        Pay annually by check
      </Button>
      <Dialog
        open={confirming}
        title="Pay annually by check"
        onClose={() => {
          setConfirming(false);
          setProblem(null);
        }}
        footer={
          <>
            <Button onClick={() => void confirm()} busy={busy}>
              {busy ? 'Issuing…' : 'Issue invoice'}
            </Button>
            <Button
              variant="secondary"
              onClick={() => {
                setConfirming(false);
                setProblem(null);
              }}
              disabled={busy}
              data-dialog-initial-focus
            >
              Cancel
            </Button>
          </>
        }
      >
        {problem ? (
          <p role="alert" className="account-notice" data-testid="annual-offer-problem">
            The invoice was not issued. {problem}
          </p>
        ) : null}
        <p>
          We issue an invoice for {formatCurrency(offer.discountedTotalCents)}, due on {start}, and
          e-mail it to you. Paid by then, your annual period starts on {start}; until then your card
          is billed monthly as usual.
        </p>
      </Dialog>
    </div>
  );
}

function RemitTo({ offer }: { offer: IAnnualOffer }) {
  return (
    <div className="annual-remit">
      <p>
        Make the check payable to <strong>{offer.remitTo.payee}</strong>, write the invoice number
        on it, and mail it to:
      </p>
      <address data-testid="annual-remit-to">
        {offer.remitTo.payee}
        {offer.remitTo.lines.map((line) => (
          <span key={line} className="annual-remit__line">
            {line}
          </span>
        ))}
      </address>
    </div>
  );
}

/** The open invoice (R14): its number, amount and due date, the PDF, and the way back to monthly. */
function OpenInvoice({
  invoice,
  onDownload,
  onVoided,
}: {
  invoice: IInvoice;
  onDownload: () => void;
  onVoided: (invoice: IInvoice) => Promise<void>;
}) {
  const keys = useRequestKey();
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setConfirming(false);
    setProblem(null);
  };
  const keepMonthly = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { invoice: voided } = await voidOwnInvoice(invoice.id, {
        requestKey: keys.keyFor({ invoiceId: invoice.id }),
      });
      keys.settle(undefined);
      await onVoided(voided);
      setConfirming(false);
    } catch (error) {
      keys.settle(error);
      setProblem(failureMessage(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="annual-invoice" data-testid="annual-open-invoice">
      <h3>Your annual invoice is open</h3>
      <dl className="account-facts annual-figures">
        <div>
          <dt>Invoice number</dt>
          <dd data-testid="annual-invoice-number">{invoice.number}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd data-testid="annual-invoice-amount">{formatCurrency(invoice.totalCents)}</dd>
        </div>
        <div>
          <dt>Due date</dt>
          <dd data-testid="annual-invoice-due">{day(invoice.dueOn)}</dd>
        </div>
        <div>
          <dt>Annual period</dt>
          <dd>
            {day(invoice.periodStart)} to {day(invoice.periodEnd)}
          </dd>
        </div>
      </dl>
      <p>
        Mail a check for {formatCurrency(invoice.totalCents)} with the invoice number on it to the
        address on the invoice. Until it arrives your card is billed monthly as usual; if it has not
        arrived by {day(invoice.dueOn)}, the invoice is voided and monthly billing simply goes on.
      </p>
      <div className="annual-actions">
        <Button variant="secondary" onClick={onDownload}>
          {T.downloadInvoice}
        </Button>
        <Button variant="secondary" aria-haspopup="dialog" onClick={() => setConfirming(true)}>
          {T.keepMonthly}
        </Button>
      </div>
      <Dialog
        open={confirming}
        title={T.keepMonthly}
        onClose={close}
        footer={
          <>
            <Button onClick={() => void keepMonthly()} busy={busy}>
              {busy ? 'Voiding…' : 'Void the invoice'}
            </Button>
            <Button variant="secondary" onClick={close} disabled={busy} data-dialog-initial-focus>
              Keep the invoice
            </Button>
          </>
        }
      >
        {problem ? (
          <p role="alert" className="account-notice" data-testid="annual-void-problem">
            The invoice was not voided. {problem}
          </p>
        ) : null}
        <p>
          Invoice {invoice.number} for {formatCurrency(invoice.totalCents)} is voided and we e-mail
          you that it is. Do not mail a check for it. Your card goes on being billed monthly.
        </p>
      </Dialog>
    </div>
  );
}

/** Every invoice the dealer was sent, newest first as the server lists them, each as its PDF. */
function InvoiceList({
  invoices,
  onDownload,
}: {
  invoices: IInvoice[];
  onDownload: (invoice: IInvoice) => void;
}) {
  if (invoices.length === 0) return null;
  return (
    <>
      <h3 className="annual-invoices-title">Your invoices</h3>
      <TableRegion label="Your invoices">
        <table className="history-table" data-testid="annual-invoices">
          <thead>
            <tr>
              <th scope="col">Invoice</th>
              <th scope="col">Status</th>
              <th scope="col">Amount</th>
              <th scope="col">Period</th>
              <th scope="col">
                <span className="visually-hidden">PDF</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {invoices.map((invoice) => (
              <tr key={invoice.id}>
                <td>{invoice.number}</td>
                <td>{invoiceStatusText(invoice)}</td>
                <td className="history-table__amount">{formatCurrency(invoice.totalCents)}</td>
                <td>
                  {day(invoice.periodStart)} to {day(invoice.periodEnd)}
                </td>
                <td>
                  <Button
                    variant="link"
                    aria-label={`Download invoice ${invoice.number}`}
                    onClick={() => onDownload(invoice)}
                  >
                    Download
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}

/** "Paid Nov 2, 2026 by check 1234", "Void since …", "Open, due …". */
export function invoiceStatusText(invoice: IInvoice): string {
  const label = STATUS_LABELS[invoice.status];
  if (invoice.status === 'open') return `${label}, due ${day(invoice.dueOn)}`;
  if (invoice.status === 'void') {
    // A returned check leaves its invoice void (docs/annual-billing-api.md).
    const since = invoice.voidedOn ? `${label} since ${day(invoice.voidedOn)}` : label;
    return invoice.check?.returnedOn
      ? `${since}, check ${invoice.check.number} returned ${day(invoice.check.returnedOn)}`
      : since;
  }
  const check = invoice.check ? ` by check ${invoice.check.number}` : '';
  const returned = invoice.check?.returnedOn
    ? `, check returned ${day(invoice.check.returnedOn)}`
    : '';
  return `${label}${invoice.paidOn ? ` ${day(invoice.paidOn)}` : ''}${check}${returned}`;
}
