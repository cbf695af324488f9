import { and, desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox, payments } from '../../db/schema.ts';
import { attachmentInfoOf, loadMailAttachments } from './mail-attachments.ts';

/** The embedded mailbox (DECISIONS R8): mail kept instead of sent, newest first. */
export async function listMailbox(db: Database, limit = 100) {
  const rows = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.toAddress,
      replyTo: mailOutbox.replyTo,
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      html: mailOutbox.htmlBody,
      createdAt: mailOutbox.createdAt,
      receiptDate: payments.activationDate,
    })
    .from(mailOutbox)
    .leftJoin(payments, eq(payments.id, mailOutbox.receiptPaymentId))
    .where(eq(mailOutbox.status, 'stored'))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
  return rows.map(({ receiptDate, ...message }) => ({
    ...message,
    attachments: attachmentInfoOf(
      receiptDate === null ? null : { activationDate: receiptDate },
    ).map((attachment) => ({
      ...attachment,
      url: `/api/dev/mailbox/${message.id}/attachments/${encodeURIComponent(attachment.filename)}`,
    })),
  }));
}

/** One attachment of a kept mail, by its file name; null when there is no such attachment. */
export async function getMailboxAttachment(db: Database, mailId: string, filename: string) {
  const [row] = await db
    .select({ receiptPaymentId: mailOutbox.receiptPaymentId })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, mailId), eq(mailOutbox.status, 'stored')));
  if (!row) return null;
  const attachments = await loadMailAttachments(db, row);
  return attachments.find((attachment) => attachment.filename === filename) ?? null;
}
