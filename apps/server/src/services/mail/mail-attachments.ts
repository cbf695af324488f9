import { eq } from 'drizzle-orm';
import { receiptFileName } from '@dealerpass/domain/billing/payment-history';
import type { MailAttachment } from '../../adapters/mail/mail-transport.ts';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';

export const RECEIPT_CONTENT_TYPE = 'application/pdf';

/** An attachment as the mailbox lists it: its name and type, not its bytes. */
export interface MailAttachmentInfo {
  filename: string;
  contentType: string;
}

/** What a mail row carries: its receipt's file name (R9's `{activationDate}-payment.pdf`), if any. */
export function attachmentInfoOf(receipt: { activationDate: string } | null): MailAttachmentInfo[] {
  return receipt
    ? [{ filename: receiptFileName(receipt.activationDate), contentType: RECEIPT_CONTENT_TYPE }]
    : [];
}

/** The attachments of a mail row, read from where they are stored (the payment's receipt). */
export async function loadMailAttachments(
  db: Database,
  row: { receiptPaymentId: string | null },
): Promise<MailAttachment[]> {
  if (!row.receiptPaymentId) return [];
  const [receipt] = await db
    .select({ activationDate: payments.activationDate, pdf: payments.receiptPdf })
    .from(payments)
    .where(eq(payments.id, row.receiptPaymentId));
  if (!receipt) return [];
  return [
    {
      ...attachmentInfoOf(receipt)[0]!,
      content: receipt.pdf,
    },
  ];
}
