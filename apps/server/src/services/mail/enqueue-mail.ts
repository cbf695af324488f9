import { sql } from 'drizzle-orm';
import { unnestRows } from '../../db/bulk.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

export interface MailToSend {
  to: string;
  replyTo?: string | undefined;
  subject: string;
  text: string;
  html?: string | undefined;
  /** The payment whose stored PDF receipt is attached (R4: the e-mailed copy of the receipt). */
  receiptPaymentId?: string | undefined;
  /** A staff refund whose stored PDF receipt is attached (R12). */
  receiptRefundId?: string | undefined;
  /** An invoice whose stored PDF is attached (R14). */
  invoiceId?: string | undefined;
}

/**
 * Writes a mail to the outbox inside the caller's transaction, so a mail exists exactly when the
 * change that caused it was committed. `stored` rows are the embedded mailbox; `pending` rows wait
 * for the SMTP dispatcher.
 */
export async function enqueueMail(
  tx: Database | Transaction,
  mail: MailToSend,
  transportKind: 'smtp' | 'mailbox',
): Promise<string> {
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: mail.subject,
      textBody: mail.text,
      htmlBody: mail.html ?? null,
      receiptPaymentId: mail.receiptPaymentId ?? null,
      receiptRefundId: mail.receiptRefundId ?? null,
      invoiceId: mail.invoiceId ?? null,
      status: transportKind === 'smtp' ? 'pending' : 'stored',
    })
    .returning({ id: mailOutbox.id });
  if (!row) throw new Error('outbox insert returned no row');
  return row.id;
}

/** Several mails in one statement, inside the caller's transaction (the billing run's receipts). */
export async function enqueueMails(
  tx: Database | Transaction,
  mails: readonly MailToSend[],
  transportKind: 'smtp' | 'mailbox',
): Promise<void> {
  if (mails.length === 0) return;
  const status = transportKind === 'smtp' ? 'pending' : 'stored';
  const rows = unnestRows(mails, {
    to_address: ['text', (mail) => mail.to],
    reply_to: ['text', (mail) => mail.replyTo ?? null],
    subject: ['text', (mail) => mail.subject],
    text_body: ['text', (mail) => mail.text],
    html_body: ['text', (mail) => mail.html ?? null],
    receipt_payment_id: ['uuid', (mail) => mail.receiptPaymentId ?? null],
    receipt_refund_id: ['uuid', (mail) => mail.receiptRefundId ?? null],
    invoice_id: ['uuid', (mail) => mail.invoiceId ?? null],
    status: ['text', () => status],
  });
  await tx.execute(sql`insert into ${mailOutbox} (${rows.names}) ${rows.select}`);
}
