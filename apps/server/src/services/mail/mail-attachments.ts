import { eq } from 'drizzle-orm';
import { receiptFileName, refundReceiptFileName } from '@dealerpass/domain/billing/payment-history';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { MailAttachment } from '../../adapters/mail/mail-transport.ts';
import type { Database } from '../../db/client.ts';
import { invoices, payments, refunds } from '../../db/schema.ts';
import { readStoredReceipt } from '../receipts/stored-receipt.ts';

export const RECEIPT_CONTENT_TYPE = 'application/pdf';

/** An attachment as the mailbox lists it: its name and type, not its bytes. */
export interface MailAttachmentInfo {
  filename: string;
  contentType: string;
}

/** A mail row's stored attachments: a payment's receipt (R4) or a staff refund's (R12). */
export interface MailAttachmentSource {
  receiptPaymentId: string | null;
  receiptRefundId: string | null;
  /** An invoice (R14), attached as `{number}.pdf`. */
  invoiceId?: string | null;
}

/**
 * The attachments of a mail row with their names, read from where they are stored, never
 * copied into the outbox: R9's `{activationDate}-payment.pdf`, or `{refundDate}-refund.pdf` (the
 * refund's business date, as the dealer's payment history names it).
 */
export async function loadMailAttachments(
  db: Database,
  row: MailAttachmentSource,
  timeZone: string,
): Promise<MailAttachment[]> {
  const attachments: MailAttachment[] = [];
  if (row.receiptPaymentId) {
    const [receipt] = await db
      .select({ activationDate: payments.activationDate, pdf: payments.receiptPdf })
      .from(payments)
      .where(eq(payments.id, row.receiptPaymentId));
    if (receipt)
      attachments.push({
        filename: receiptFileName(receipt.activationDate),
        contentType: RECEIPT_CONTENT_TYPE,
        content: await readStoredReceipt(db, receipt.pdf),
      });
  }
  if (row.receiptRefundId) {
    const [refund] = await db
      .select({ settledAt: refunds.settledAt, pdf: refunds.receiptPdf })
      .from(refunds)
      .where(eq(refunds.id, row.receiptRefundId));
    if (refund?.pdf && refund.settledAt)
      attachments.push({
        filename: refundReceiptFileName(toIsoDate(calendarDateIn(refund.settledAt, timeZone))),
        contentType: RECEIPT_CONTENT_TYPE,
        content: refund.pdf,
      });
  }
  if (row.invoiceId) {
    const [invoice] = await db
      .select({ number: invoices.number, pdf: invoices.pdf })
      .from(invoices)
      .where(eq(invoices.id, row.invoiceId));
    if (invoice)
      attachments.push({
        filename: `${invoice.number}.pdf`,
        contentType: RECEIPT_CONTENT_TYPE,
        content: invoice.pdf,
      });
  }
  return attachments;
}
