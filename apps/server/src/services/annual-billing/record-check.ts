import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { annualBillingMail } from '../mail/messages/annual-billing-mail.ts';
import { and, eq, isNull } from 'drizzle-orm';
import type { IAnnualQuote } from '@dealerpass/domain/billing/annual';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { formatCurrency } from '@dealerpass/domain/money';
import type { IQuote } from '@dealerpass/domain/prices';
import type { IInvoice, TRecordCheckRequest } from '@dealerpass/domain/schemas/annual-billing';
import {
  billingPeriodText,
  CHECK_TRANSACTION_PREFIX,
} from '@dealerpass/domain/billing/receipt-text';
import type { Database, Transaction } from '../../db/client.ts';
import type { users } from '../../db/schema.ts';
import {
  accountEvents,
  billingPeriods,
  checks,
  invoices,
  payments,
  subscriptions,
} from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { isUniqueViolation } from '../../errors/unique-violation.ts';
import { addBalanceEntries, paidPeriodEntries } from '../billing/account-balance.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { receiptParties, renderReceipt } from '../receipts/render-receipt.ts';
import { receiptColumns } from '../receipts/stored-receipt.ts';
import { oncePerKey } from '../request-keys/once-per-key.ts';
import { writeStaffAudit, type StaffActor } from '../admin/audit/staff-audit.ts';
import {
  businessDate,
  findAccountInvoice,
  invoiceViewById,
  type InvoiceRow,
} from './invoice-records.ts';

type UserRow = typeof users.$inferSelect;

/** Statuses whose cycle has ended: a reactivation starts a new one (R4). */
const INACTIVE_STATUSES: readonly string[] = [
  ACCOUNT_STATUS.inactive,
  ACCOUNT_STATUS.pendingReactivation,
];

/** The receipt line code of the annual discount (R14): not a catalogue code. */
export const ANNUAL_DISCOUNT_LINE_CODE = 'DISCOUNT';

/**
 * An invoice's amounts as a billing period's quote, the receipt's lines: each item × 12, the
 * discount as a negative line, the platform fee × 12; lines and fee add up to the total.
 */
export function annualPeriodQuote(invoice: InvoiceRow): IQuote {
  const priced = invoice.quote as IAnnualQuote & {
    lines: { label: string; amountCents: number }[];
  };
  const feeLine = priced.lines.find((line) => line.label.startsWith('Platform fee'));
  const platformFeeCents = feeLine?.amountCents ?? 0;
  const lines = priced.lines
    .filter((line) => line !== feeLine)
    .map((line) => ({
      code: 'ANNUAL',
      name: line.label,
      cents: line.amountCents,
      listCents: line.amountCents,
      free: line.amountCents === 0,
    }));
  lines.push({
    code: ANNUAL_DISCOUNT_LINE_CODE,
    name: 'Annual discount (10%)',
    cents: -invoice.discountCents,
    listCents: -invoice.discountCents,
    free: false,
  });
  return {
    lines: lines as IQuote['lines'],
    subtotalCents: invoice.totalCents - platformFeeCents,
    platformFeeCents,
    totalCents: invoice.totalCents,
  };
}

/** What the invoice leaves open: its total while open, nothing once paid or void. */
export function leftOpenCents(invoice: InvoiceRow): number {
  return invoice.status === 'open' ? invoice.totalCents : 0;
}

/**
 * Billing staff record a check received for an open invoice (R14): the amount must equal what
 * the invoice leaves open (409 saying what that is). In one transaction, the account locked
 * first: the annual period as a paid billing period (the billing run then moves the account past
 * it and charges no card for it), the payment with its receipt ("Check {number}"), the ledger's
 * charge and payment together, the invoice paid, the account's annual period, the receipt
 * e-mailed, the audit. Once per request key.
 */
export async function recordCheck(
  db: Database,
  deps: BillingDeps,
  input: {
    userId: string;
    invoiceId: string;
    now: Date;
    body: TRecordCheckRequest;
    params: Record<string, string>;
    actor: StaffActor;
  },
): Promise<IInvoice> {
  await oncePerKey<{ invoiceId: string }>(
    db,
    {
      owner: { staffId: input.actor.staffId },
      action: 'recordCheck',
      target: input.params,
      body: input.body,
    },
    {
      act: async (tx) => {
        const user = await lockAccount(tx, input.userId);
        if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
        const invoice = await findAccountInvoice(tx, user.id, input.invoiceId, true);
        if (invoice.status !== 'open') throw new AppError(ERROR_CODES.INVOICE_NOT_OPEN);
        if (INACTIVE_STATUSES.includes(user.accountStatus)) {
          // The invoice's year starts on a bill date of the cycle that ended; a reactivation
          // starts a new one and reissues the invoice for it (decision 054). Paid now, the
          // year would hold the new cycle's card charges (R14).
          throw new AppError(ERROR_CODES.ANNUAL_NOT_AVAILABLE, {
            message: `The account is ${user.accountStatus}: a check is recorded only once it is reactivated, when invoice ${invoice.number} is reissued for its new billing day. Call the dealer.`,
          });
        }
        const open = leftOpenCents(invoice);
        if (input.body.amountCents !== open) {
          throw new AppError(ERROR_CODES.CHECK_AMOUNT_MISMATCH, {
            message: `The check is for ${formatCurrency(input.body.amountCents)}, but invoice ${invoice.number} leaves ${formatCurrency(open)} open. Record a check for exactly ${formatCurrency(open)}.`,
            errors: [
              {
                source: 'amountCents',
                message: `Enter exactly ${formatCurrency(open)}, what the invoice leaves open.`,
              },
            ],
          });
        }
        await payByCheck(tx, deps, user, invoice, input.body, input.now);
        await writeStaffAudit(tx, {
          actor: input.actor,
          action: 'recordCheck',
          userId: user.id,
          before: { invoiceId: invoice.id, number: invoice.number, status: 'open' },
          after: {
            invoiceId: invoice.id,
            number: invoice.number,
            status: 'paid',
            checkNumber: input.body.checkNumber,
            amountCents: input.body.amountCents,
            receivedOn: input.body.receivedOn,
          },
          reason: null,
          requestKey: input.body.requestKey,
          at: input.now,
        });
        return { invoiceId: invoice.id };
      },
    },
  );
  return invoiceViewById(db, input.invoiceId);
}

/** The writes of a check that pays an open invoice, in the caller's transaction (the demo's too). */
export async function payByCheck(
  tx: Transaction,
  deps: BillingDeps,
  user: UserRow,
  invoice: InvoiceRow,
  check: { checkNumber: string; amountCents: number; receivedOn: string },
  now: Date,
): Promise<{ paymentId: string; periodId: string }> {
  const today = businessDate(now, deps.timeZone);
  const periodQuote = annualPeriodQuote(invoice);
  let period;
  try {
    // A savepoint: a period the run opened (and billed by card) at this start is a 409, not an
    // aborted transaction.
    [period] = await tx.transaction((inner) =>
      inner
        .insert(billingPeriods)
        .values({
          userId: user.id,
          kind: 'annual',
          periodStart: invoice.periodStart,
          periodEnd: invoice.nextStart,
          amountCents: invoice.totalCents,
          quote: periodQuote,
          status: 'paid',
          idempotencyKey: `annual-check:${invoice.id}:${check.checkNumber}:${now.getTime()}`,
          createdAt: now,
          settledAt: now,
        })
        .returning(),
    );
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError(ERROR_CODES.ANNUAL_PERIOD_BILLED);
    throw error;
  }
  if (!period) throw new Error('the annual period was not written');
  const paymentId = crypto.randomUUID();
  const paidWith = `Check ${check.checkNumber}`;
  const shownPeriod = { from: invoice.periodStart, to: invoice.periodEnd };
  const receipt = renderReceipt({
    company: deps.company,
    ...receiptParties(user),
    period: shownPeriod,
    lines: periodQuote.lines,
    platformFeeCents: periodQuote.platformFeeCents,
    totalCents: periodQuote.totalCents,
    card: { brand: 'Check', lastFour: '' },
    paidWith,
    paymentDate: today,
    paymentId,
    issuedAt: now,
  });
  await tx.insert(payments).values({
    id: paymentId,
    userId: user.id,
    billingPeriodId: period.id,
    amountCents: check.amountCents,
    gatewayTransactionId: `${CHECK_TRANSACTION_PREFIX}${check.checkNumber}`,
    cardBrand: 'Check',
    cardLast4: check.checkNumber.slice(-4),
    activationDate: today,
    ...receiptColumns(receipt),
    createdAt: now,
  });
  // The ledger takes the period's charge and the check's payment together (R14).
  await addBalanceEntries(
    tx,
    paidPeriodEntries(period, { id: paymentId, amountCents: check.amountCents }),
    now,
  );
  await tx.insert(checks).values({
    invoiceId: invoice.id,
    userId: user.id,
    number: check.checkNumber,
    amountCents: check.amountCents,
    receivedOn: check.receivedOn,
    paymentId,
    billingPeriodId: period.id,
    createdAt: now,
  });
  await tx
    .update(invoices)
    .set({ status: 'paid', paidOn: today })
    .where(and(eq(invoices.id, invoice.id), eq(invoices.status, 'open')));
  // The days paid by check: a renewal's year extends the running one, another starts anew.
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, user.id))
    .for('update');
  const continues =
    subscription?.annualPeriodEnd != null &&
    subscription.annualPeriodStart != null &&
    subscription.annualPeriodEnd >= today &&
    invoice.kind === 'renewal';
  await tx
    .update(subscriptions)
    .set({
      annualPeriodStart: continues ? subscription.annualPeriodStart : invoice.periodStart,
      annualPeriodEnd: invoice.periodEnd,
      updatedAt: now,
    })
    .where(eq(subscriptions.userId, user.id));
  await tx.insert(accountEvents).values({
    userId: user.id,
    event: 'check recorded',
    actor: 'staff',
    at: now,
    details: {
      invoiceId: invoice.id,
      number: invoice.number,
      checkNumber: check.checkNumber,
      amountCents: check.amountCents,
      paymentId,
    },
  });
  await enqueueMail(
    tx,
    {
      to: user.email,
      content: annualBillingMail({
        company: deps.company.name,
        subject: `${deps.company.name} receipt for ${today}`,
        text: [
          `Hello ${user.firstName},`,
          '',
          `We received your ${paidWith} for ${formatCurrency(check.amountCents)}, paying invoice ${invoice.number}. Your account is billed annually by check for ${billingPeriodText(shownPeriod)}; no card charge falls in that period.`,
          `Your receipt (payment ${paymentId}) is attached, and is under Billing Details, Payment History, in your account.`,
          '',
          `Questions? Call ${deps.company.supportPhone}.`,
        ].join('\n'),
      }),
      receiptPaymentId: paymentId,
    },
    deps.mailKind,
  );
  return { paymentId, periodId: period.id };
}

/** The standing (not returned) check of an invoice, if any. */
export async function standingCheck(tx: Transaction, invoiceId: string) {
  const [row] = await tx
    .select()
    .from(checks)
    .where(and(eq(checks.invoiceId, invoiceId), isNull(checks.returnedOn)))
    .for('update');
  return row ?? null;
}
