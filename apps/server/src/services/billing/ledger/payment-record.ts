import type { IQuote } from '@dealerpass/domain/prices';
import { billingPeriodShown, cardBrandName } from '@dealerpass/domain/billing/receipt-text';
import type { billingPeriods, payments, users } from '../../../db/schema.ts';
import type { MailToSend } from '../../mail/enqueue-mail.ts';
import { receiptMail } from '../../mail/messages/receipt-mail.ts';
import { receiptParties, renderReceipt, type IReceipt } from '../../receipts/render-receipt.ts';
import { receiptColumns, type IReceiptColumns } from '../../receipts/stored-receipt.ts';
import type { BillingDeps } from './billing-deps.ts';

export interface IPaymentRecordInput {
  company: BillingDeps['company'];
  user: typeof users.$inferSelect;
  period: Pick<
    typeof billingPeriods.$inferSelect,
    'id' | 'periodStart' | 'periodEnd' | 'amountCents' | 'quote'
  >;
  card: { brand: string | null; last4: string | null };
  transactionId: string;
  /** The payment's business date (YYYY-MM-DD). */
  activationDate: string;
  now: Date;
}

/** A successful charge about to be recorded: its new payment id and the receipt it prints. */
export interface IPaymentToRecord {
  input: IPaymentRecordInput;
  paymentId: string;
  receipt: IReceipt;
}

/** The payment's id and its receipt's contents; rendering is the caller's (it may batch). */
export function paymentToRecord(input: IPaymentRecordInput): IPaymentToRecord {
  const { company, user, period, card, activationDate } = input;
  const priced = period.quote as IQuote;
  const paymentId = crypto.randomUUID();
  return {
    input,
    paymentId,
    receipt: {
      company,
      ...receiptParties(user),
      // One period and one card, in the PDF and in its e-mail alike.
      period: billingPeriodShown(period.periodStart, period.periodEnd),
      lines: priced.lines,
      platformFeeCents: priced.platformFeeCents,
      totalCents: priced.totalCents,
      card: { brand: cardBrandName(card.brand), lastFour: card.last4 ?? '----' },
      paymentDate: activationDate,
      paymentId,
      issuedAt: input.now,
    },
  };
}

/** The payment row (with its rendered receipt's columns) and the receipt's e-mail. */
export function recordOf(
  payment: IPaymentToRecord,
  columns: IReceiptColumns,
): { row: typeof payments.$inferInsert; mail: MailToSend } {
  const { input, paymentId, receipt } = payment;
  const { company, user, period, card, activationDate } = input;
  return {
    row: {
      id: paymentId,
      userId: user.id,
      billingPeriodId: period.id,
      amountCents: period.amountCents,
      gatewayTransactionId: input.transactionId,
      cardBrand: card.brand ?? 'card',
      cardLast4: card.last4 ?? '',
      activationDate,
      ...columns,
      // The application's clock, as every business time (the trial is counted from it, R4).
      createdAt: input.now,
    },
    mail: {
      to: user.email,
      content: receiptMail({
        company,
        firstName: user.firstName,
        amountCents: period.amountCents,
        card,
        period: receipt.period,
        paymentId,
        activationDate,
      }),
      receiptPaymentId: paymentId,
    },
  };
}

/**
 * One successful charge as it is stored: the payment row with its receipt (rendered here, once,
 * stored as decision 066 says, with its CRC-32) and the receipt's e-mail. Shared by a single
 * charge's record and the demo seed; the billing run renders its batches' receipts in
 * `receipt-renderer.ts` and uses the two halves above.
 */
export function paymentRecord(input: IPaymentRecordInput): {
  row: typeof payments.$inferInsert;
  mail: MailToSend;
} {
  const payment = paymentToRecord(input);
  return recordOf(payment, receiptColumns(renderReceipt(payment.receipt)));
}
