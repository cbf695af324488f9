import { annualBillingMail } from '../mail/messages/annual-billing-mail.ts';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { formatCurrency } from '@dealerpass/domain/money';
import type { IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../admin/audit/staff-audit.ts';
import { findAccountInvoice, invoiceViewById, invoicingOf } from './invoice-records.ts';

/** Billing staff send an invoice's e-mail again, its stored PDF attached (R14), once per key. */
export async function resendInvoice(
  db: Database,
  deps: BillingDeps,
  input: {
    userId: string;
    invoiceId: string;
    now: Date;
    body: { requestKey: string; reason?: string | undefined };
    params: Record<string, string>;
    actor: StaffActor;
  },
): Promise<IInvoice> {
  await oncePerKey<{ invoiceId: string }>(
    db,
    {
      owner: { staffId: input.actor.staffId },
      action: 'resendInvoice',
      target: input.params,
      body: input.body,
    },
    {
      act: async (tx) => {
        const user = await lockAccount(tx, input.userId);
        if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
        const invoice = await findAccountInvoice(tx, user.id, input.invoiceId);
        const shown = (date: string) => formatCalendarDate(parseIsoDate(date));
        const remitTo = invoicingOf(deps).remitTo;
        await enqueueMail(
          tx,
          {
            to: user.email,
            content: annualBillingMail({
              company: deps.company.name,
              subject: `${deps.company.name}: your invoice ${invoice.number} (copy)`,
              text: [
                `Hello ${user.firstName},`,
                '',
                `As you asked, here is a copy of invoice ${invoice.number} (${invoice.status}) for ${shown(invoice.periodStart)} to ${shown(invoice.periodEnd)}: ${formatCurrency(invoice.totalCents)}, due ${shown(invoice.dueOn)}.`,
                invoice.status === 'open'
                  ? `Please send a check payable to ${remitTo.payee}, with the invoice number on it, to: ${[remitTo.payee, ...remitTo.lines].join(', ')}.`
                  : 'No payment is asked for by this copy.',
                '',
                `Questions? Call ${deps.company.supportPhone}.`,
              ].join('\n'),
            }),
            invoiceId: invoice.id,
          },
          deps.mailKind,
        );
        await writeStaffAudit(tx, {
          actor: input.actor,
          action: 'resendInvoice',
          userId: user.id,
          before: { invoiceId: invoice.id, number: invoice.number, status: invoice.status },
          after: { invoiceId: invoice.id, number: invoice.number, status: invoice.status },
          reason: input.body.reason ?? null,
          requestKey: input.body.requestKey,
          at: input.now,
        });
        return { invoiceId: invoice.id };
      },
    },
  );
  return invoiceViewById(db, input.invoiceId);
}
