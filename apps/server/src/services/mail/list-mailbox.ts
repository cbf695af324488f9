import { and, desc, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { loadMailAttachments } from './mail-attachments.ts';

/** The embedded mailbox (DECISIONS R8): mail kept instead of sent, newest first. */
export async function listMailbox(db: Database, timeZone: string, limit = 100) {
  const rows = await db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.toAddress,
      replyTo: mailOutbox.replyTo,
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      hasHtml: sql<boolean>`${mailOutbox.htmlBody} is not null`,
      createdAt: mailOutbox.createdAt,
      receiptPaymentId: mailOutbox.receiptPaymentId,
      receiptRefundId: mailOutbox.receiptRefundId,
      invoiceId: mailOutbox.invoiceId,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'stored'))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
  return Promise.all(
    rows.map(async ({ receiptPaymentId, receiptRefundId, invoiceId, hasHtml, ...message }) => {
      const stored =
        receiptPaymentId || receiptRefundId || invoiceId
          ? await loadMailAttachments(
              db,
              { receiptPaymentId, receiptRefundId, invoiceId },
              timeZone,
            )
          : [];
      return {
        ...message,
        htmlUrl: hasHtml ? `/api/dev/mailbox/${message.id}/html` : null,
        attachments: stored.map(({ filename, contentType }) => ({
          filename,
          contentType,
          url: `/api/dev/mailbox/${message.id}/attachments/${encodeURIComponent(filename)}`,
        })),
      };
    }),
  );
}

/** One attachment of a kept mail, by its file name; null when there is no such attachment. */
export async function getMailboxAttachment(
  db: Database,
  mailId: string,
  filename: string,
  timeZone: string,
) {
  const [row] = await db
    .select({
      receiptPaymentId: mailOutbox.receiptPaymentId,
      receiptRefundId: mailOutbox.receiptRefundId,
      invoiceId: mailOutbox.invoiceId,
    })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, mailId), eq(mailOutbox.status, 'stored')));
  if (!row) return null;
  const attachments = await loadMailAttachments(db, row, timeZone);
  return attachments.find((attachment) => attachment.filename === filename) ?? null;
}

/** The HTML part of a kept mail; null when there is no such mail or it has no HTML part. */
export async function getMailboxHtml(db: Database, mailId: string): Promise<string | null> {
  const [row] = await db
    .select({ html: mailOutbox.htmlBody })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.id, mailId), eq(mailOutbox.status, 'stored')));
  return row?.html ?? null;
}
