import { accountFlags, normalizeStatus } from '@dealerpass/domain/account/status';
import { annualIneligibleReason } from '@dealerpass/domain/billing/annual';
import type { IInvoice, IInvoiceResult } from '@dealerpass/domain/schemas/annual-billing';
import type { TStaffAccountDetail } from '@dealerpass/domain/admin/console-views';
import { TableRegion } from '../../../components/ui/table-region.tsx';
import { invoicePdfUrl } from '../api/account-file-urls.ts';
import { setUpAnnualBilling, takeInvoiceAction } from '../api/take-invoice-action.ts';
import { useMayTake } from '../staff-member.tsx';
import { ActionButton, type IActionOutcome } from './action-dialog.tsx';
import { businessDate, money } from './format.ts';
import { RecordCheckButton } from './record-check-dialog.tsx';
import { Empty, Facts, Section } from './section.tsx';

type TDetail = TStaffAccountDetail;

const STATUS_LABELS: Record<IInvoice['status'], string> = {
  open: 'Open',
  paid: 'Paid',
  void: 'Void',
};

/** The answer's invoice, as the console names it in an outcome. */
const invoiceOf = (result: unknown) => (result as IInvoiceResult).invoice;

/**
 * Annual billing by check (R14): the period paid by check, every invoice (open, paid, void) with
 * its PDF, and for billing staff the invoice actions, each behind a dialog with its own request
 * key (decision 031). Every role reads; billing and admin act (R12).
 */
export function InvoicesSection({
  detail,
  onChanged,
}: {
  detail: TDetail;
  onChanged: (outcome: IActionOutcome) => void;
}) {
  const mayTake = useMayTake();
  const userId = detail.profile.userId;
  const flags = accountFlags(detail.status);
  // R14: at most one open invoice per account; its actions stand above the list.
  const open = detail.invoices.find((invoice) => invoice.status === 'open');
  const rowActions = mayTake('returnedCheck') && detail.invoices.some(returnable);
  // R14's "who", the domain's rule the server applies too; the button is offered only where it
  // can succeed, and otherwise the reason is shown. The console has no quote of the selection:
  // any item makes the monthly total above zero (R3), which is all the rule asks of it.
  const ineligible = annualIneligibleReason({
    status: normalizeStatus(detail.status.accountStatus),
    complimentary: flags.complimentary,
    onAnnualPeriod: detail.annualPeriod !== null,
    hasOpenInvoice: open !== undefined,
    monthlyTotalCents: (detail.subscription?.codes.length ?? 0) > 0 ? 1 : 0,
  });
  const eligible = ineligible === null && !flags.blocked;

  const setUp =
    mayTake('requestAnnualBilling') && eligible ? (
      <ActionButton
        spec={{
          label: 'Set up annual billing',
          title: 'Set up annual billing by check',
          description: (
            <p>
              An invoice for a year of the account’s selection, less 10%, is issued now and e-mailed
              to the dealer, due at the first bill date at least 30 days away. The card is billed
              monthly until the check arrives.
            </p>
          ),
          confirmLabel: 'Issue invoice',
          done: (result) => {
            const invoice = invoiceOf(result);
            return {
              tone: 'success',
              text: `Invoice ${invoice.number} for ${money(invoice.totalCents)} was issued and e-mailed, due ${businessDate(invoice.dueOn)}.`,
            };
          },
        }}
        run={({ requestKey, reason = '' }) => setUpAnnualBilling(userId, { requestKey, reason })}
        onDone={onChanged}
      />
    ) : null;

  return (
    <Section title="Invoices" id="admin-invoices" actions={setUp}>
      <Facts
        items={[
          [
            'Billing',
            <span data-testid="admin-annual-period">
              {detail.annualPeriod
                ? `Annually by check, paid through ${businessDate(detail.annualPeriod.end)} (from ${businessDate(detail.annualPeriod.start)})`
                : 'Monthly by card'}
            </span>,
          ],
          ...(ineligible && !open && !detail.annualPeriod
            ? ([['Annual billing by check', ineligible]] as [string, string][])
            : []),
        ]}
      />
      {open ? (
        <div className="admin-invoice-open" data-testid="admin-open-invoice">
          <p>
            <strong>Open invoice {open.number}</strong>: {money(open.totalCents)}, due{' '}
            {businessDate(open.dueOn)}, for {businessDate(open.periodStart)} to{' '}
            {businessDate(open.periodEnd)}.
          </p>
          <InvoiceActions userId={userId} invoice={open} onChanged={onChanged} />
        </div>
      ) : null}
      {detail.invoices.length === 0 ? (
        <Empty>No invoices.</Empty>
      ) : (
        <TableRegion label="Invoices">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Invoice</th>
                <th scope="col">Status</th>
                <th scope="col">Amount</th>
                <th scope="col">Due</th>
                <th scope="col">Period</th>
                <th scope="col">Check</th>
                <th scope="col">PDF</th>
                {rowActions ? <th scope="col">Actions</th> : null}
              </tr>
            </thead>
            <tbody>
              {detail.invoices.map((invoice) => (
                <tr key={invoice.id} data-testid={`invoice-${invoice.number}`}>
                  <th scope="row" className="admin-mono admin-nowrap">
                    {invoice.number}
                  </th>
                  <td>
                    <span data-testid="invoice-status">{statusOf(invoice)}</span>
                    <span className="admin-muted admin-block">
                      issued {businessDate(invoice.issuedOn)}
                    </span>
                  </td>
                  <td className="admin-amount">{money(invoice.totalCents)}</td>
                  <td className="admin-nowrap">{businessDate(invoice.dueOn)}</td>
                  <td>
                    <span className="admin-nowrap">{businessDate(invoice.periodStart)} to</span>{' '}
                    <span className="admin-nowrap">{businessDate(invoice.periodEnd)}</span>
                  </td>
                  <td>{checkOf(invoice)}</td>
                  <td>
                    <a href={invoicePdfUrl(userId, invoice.id)} download={`${invoice.number}.pdf`}>
                      PDF<span className="visually-hidden"> of invoice {invoice.number}</span>
                    </a>
                  </td>
                  {rowActions ? (
                    <td>
                      {returnable(invoice) ? (
                        <InvoiceActions userId={userId} invoice={invoice} onChanged={onChanged} />
                      ) : null}
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </TableRegion>
      )}
    </Section>
  );
}

function statusOf(invoice: IInvoice): string {
  const label = STATUS_LABELS[invoice.status];
  if (invoice.status === 'paid' && invoice.paidOn)
    return `${label} ${businessDate(invoice.paidOn)}`;
  if (invoice.status === 'void' && invoice.voidedOn) {
    return `${label} since ${businessDate(invoice.voidedOn)}`;
  }
  return label;
}

/** A paid invoice whose check has not been returned: the bank may still return it (R14). */
function returnable(invoice: IInvoice): boolean {
  return invoice.status === 'paid' && invoice.check !== undefined && !invoice.check.returnedOn;
}

function checkOf(invoice: IInvoice): string {
  const check = invoice.check;
  if (!check) return '—';
  const received = `${check.number}, ${money(check.amountCents)}, received ${businessDate(check.receivedOn)}`;
  return check.returnedOn ? `${received}, returned ${businessDate(check.returnedOn)}` : received;
}

/** An open invoice: record a check, resend, void. A paid one: record its check as returned. */
function InvoiceActions({
  userId,
  invoice,
  onChanged,
}: {
  userId: string;
  invoice: IInvoice;
  onChanged: (outcome: IActionOutcome) => void;
}) {
  const mayTake = useMayTake();
  const { number } = invoice;
  if (invoice.status === 'open') {
    if (!mayTake('recordCheck') && !mayTake('resendInvoice') && !mayTake('voidInvoice'))
      return null;
    return (
      <div className="admin-row-actions" role="group" aria-label={`Actions for invoice ${number}`}>
        {mayTake('recordCheck') ? (
          <RecordCheckButton
            invoice={invoice}
            run={(body) => takeInvoiceAction(userId, invoice.id, 'check', body)}
            onDone={onChanged}
          />
        ) : null}
        {mayTake('resendInvoice') ? (
          <ActionButton
            spec={{
              label: 'Resend invoice',
              title: `Resend invoice ${number}`,
              description: <p>The dealer is e-mailed invoice {number} again, with its PDF.</p>,
              confirmLabel: 'Resend',
              reasonOptional: true,
              done: `Invoice ${number} was e-mailed again.`,
            }}
            run={({ requestKey, reason }) =>
              takeInvoiceAction(userId, invoice.id, 'resend', {
                requestKey,
                ...(reason ? { reason } : {}),
              })
            }
            onDone={onChanged}
          />
        ) : null}
        {mayTake('voidInvoice') ? (
          <ActionButton
            spec={{
              label: 'Void invoice',
              title: `Void invoice ${number}`,
              description: (
                <p>
                  Invoice {number} for {money(invoice.totalCents)} is voided and the dealer
                  e-mailed. The card goes on being billed monthly. A voided invoice cannot be paid;
                  a new one is a new request.
                </p>
              ),
              confirmLabel: 'Void invoice',
              danger: true,
              done: `Invoice ${number} was voided.`,
            }}
            run={({ requestKey, reason = '' }) =>
              takeInvoiceAction(userId, invoice.id, 'void', { requestKey, reason })
            }
            onDone={onChanged}
          />
        ) : null}
      </div>
    );
  }
  if (returnable(invoice) && invoice.check) {
    const check = invoice.check;
    return (
      <div className="admin-row-actions">
        <ActionButton
          spec={{
            label: 'Record returned check',
            title: `Record check ${check.number} as returned`,
            description: (
              <p>
                The bank returned check {check.number} for {money(check.amountCents)}: the payment
                is reversed and the amount is owed. The account goes to validating payment and the
                card on file is charged on the usual retries; with no card on file, the account
                becomes inactive at the last retry date.
              </p>
            ),
            confirmLabel: 'Record returned check',
            danger: true,
            done: `Check ${check.number} was recorded as returned; its payment is reversed.`,
          }}
          run={({ requestKey, reason = '' }) =>
            takeInvoiceAction(userId, invoice.id, 'check/returned', { requestKey, reason })
          }
          onDone={onChanged}
        />
      </div>
    );
  }
  return null;
}
