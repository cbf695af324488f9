import { desc, eq } from 'drizzle-orm';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';

/** The embedded mailbox (DECISIONS R8): mail kept instead of sent, newest first. */
export async function listMailbox(db: Database, limit = 100) {
  return db
    .select({
      id: mailOutbox.id,
      to: mailOutbox.toAddress,
      replyTo: mailOutbox.replyTo,
      subject: mailOutbox.subject,
      text: mailOutbox.textBody,
      html: mailOutbox.htmlBody,
      createdAt: mailOutbox.createdAt,
    })
    .from(mailOutbox)
    .where(eq(mailOutbox.status, 'stored'))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(limit);
}
