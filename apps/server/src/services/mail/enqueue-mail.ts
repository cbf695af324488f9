import { sql } from 'drizzle-orm';
import { mailText, type IMailContent } from '@dealerpass/domain/mail/mail-content';
import { unnestRows } from '../../db/bulk.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { renderMailHtml } from './render-mail-html.ts';

export interface MailToSend {
  to: string;
  replyTo?: string | undefined;
  /** What the message says (its content function, `services/mail/messages/`). */
  content: IMailContent;
  /**
   * Sent by a process, not written by a person: `Auto-Submitted: auto-generated` (RFC 3834).
   * Only a staff member's own reply is `false` (docs/decisions/044).
   */
  automatic?: boolean | undefined;
  /** The payment whose stored PDF receipt is attached (R4: the e-mailed copy of the receipt). */
  receiptPaymentId?: string | undefined;
  /** A staff refund whose stored PDF receipt is attached (R12). */
  receiptRefundId?: string | undefined;
  /** An invoice whose stored PDF is attached (R14). */
  invoiceId?: string | undefined;
}

/** The stored parts of a mail: the plain text and its HTML alternative, from one content. */
function partsOf(mail: MailToSend) {
  const automatic = mail.automatic ?? true;
  return {
    subject: mail.content.subject,
    text: mailText(mail.content),
    html: renderMailHtml(mail.content, { automatic }),
    automatic,
  };
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
  const parts = partsOf(mail);
  const [row] = await tx
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      replyTo: mail.replyTo ?? null,
      subject: parts.subject,
      textBody: parts.text,
      htmlBody: parts.html,
      automatic: parts.automatic,
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
    subject: ['text', (mail) => mail.content.subject],
    text_body: ['text', (mail) => mailText(mail.content)],
    html_body: [
      'text',
      (mail) => renderMailHtml(mail.content, { automatic: mail.automatic ?? true }),
    ],
    automatic: ['boolean', (mail) => mail.automatic ?? true],
    receipt_payment_id: ['uuid', (mail) => mail.receiptPaymentId ?? null],
    receipt_refund_id: ['uuid', (mail) => mail.receiptRefundId ?? null],
    invoice_id: ['uuid', (mail) => mail.invoiceId ?? null],
    status: ['text', () => status],
  });
  await tx.execute(sql`insert into ${mailOutbox} (${rows.names}) ${rows.select}`);
}
