import { annualBillingMail } from '../mail/messages/annual-billing-mail.ts';
import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import type { Database, Transaction } from '../../db/client.ts';
import type { users } from '../../db/schema.ts';
import { accountEvents, invoices } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../admin/audit/staff-audit.ts';
import {
  businessDate,
  findAccountInvoice,
  invoiceViewById,
  type InvoiceRow,
} from './invoice-records.ts';

type UserRow = typeof users.$inferSelect;

export type VoidedBy = 'dealer' | 'staff' | 'due date';

/**
 * Voids an open invoice (R14) in the caller's transaction, which holds the account's lock: the
 * invoice keeps what it says and becomes void, the dealer is e-mailed, and nothing else changes
 * (monthly card billing simply goes on). An invoice no longer open is 409.
 */
export async function voidOpenInvoice(
  tx: Transaction,
  deps: BillingDeps,
  user: UserRow,
  invoice: InvoiceRow,
  how: { by: VoidedBy; reason: string | null; now: Date },
): Promise<void> {
  if (invoice.status !== 'open') throw new AppError(ERROR_CODES.INVOICE_NOT_OPEN);
  const voidedOn = businessDate(how.now, deps.timeZone);
  await tx
    .update(invoices)
    .set({ status: 'void', voidedOn, voidedBy: how.by, voidReason: how.reason })
    .where(eq(invoices.id, invoice.id));
  await tx.insert(accountEvents).values({
    userId: user.id,
    event: 'invoice voided',
    actor: how.by === 'due date' ? 'billing-run' : how.by === 'dealer' ? 'user' : 'staff',
    at: how.now,
    details: { invoiceId: invoice.id, number: invoice.number, by: how.by, reason: how.reason },
  });
  const due = formatCalendarDate(parseIsoDate(invoice.dueOn));
  await enqueueMail(
    tx,
    {
      to: user.email,
      content: annualBillingMail({
        company: deps.company.name,
        subject: `${deps.company.name}: invoice ${invoice.number} is void`,
        text: [
          `Hello ${user.firstName},`,
          '',
          how.by === 'due date'
            ? `We did not receive a check for invoice ${invoice.number} by its due date, ${due}, so the invoice is void.`
            : `Invoice ${invoice.number} for annual billing by check is void, as you asked.`,
          'Nothing else changes: your card on file is billed monthly, as before. Please do not send a check for this invoice.',
          '',
          `Questions? Call ${deps.company.supportPhone}.`,
        ].join('\n'),
      }),
    },
    deps.mailKind,
  );
}

/**
 * "Keep paying monthly by card" (the dealer) or a void by billing staff, with a reason (R12):
 * once per request key, the account locked first.
 */
export async function voidInvoice(
  db: Database,
  deps: BillingDeps,
  input: {
    userId: string;
    invoiceId: string;
    now: Date;
    body: { requestKey: string; reason?: string };
    params: Record<string, string>;
    staff?: { actor: StaffActor; reason: string };
  },
): Promise<IInvoice> {
  await oncePerKey<{ invoiceId: string }>(
    db,
    {
      owner: input.staff ? { staffId: input.staff.actor.staffId } : { userId: input.userId },
      action: input.staff ? 'voidInvoice' : 'voidInvoiceByDealer',
      target: input.params,
      body: input.body,
    },
    {
      act: async (tx) => {
        const user = await lockAccount(tx, input.userId);
        if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
        const invoice = await findAccountInvoice(tx, user.id, input.invoiceId, true);
        await voidOpenInvoice(tx, deps, user, invoice, {
          by: input.staff ? 'staff' : 'dealer',
          reason: input.staff?.reason ?? input.body.reason ?? null,
          now: input.now,
        });
        if (input.staff) {
          await writeStaffAudit(tx, {
            actor: input.staff.actor,
            action: 'voidInvoice',
            userId: user.id,
            before: { invoiceId: invoice.id, number: invoice.number, status: invoice.status },
            after: { invoiceId: invoice.id, number: invoice.number, status: 'void' },
            reason: input.staff.reason,
            requestKey: input.body.requestKey,
            at: input.now,
          });
        }
        return { invoiceId: invoice.id };
      },
    },
  );
  return invoiceViewById(db, input.invoiceId);
}
