import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from '../../adapters/mail/mail-transport.ts';
import type { Database } from '../../db/client.ts';
import { mailOutbox } from '../../db/schema.ts';
import { loadMailAttachments } from './mail-attachments.ts';

const MAX_ATTEMPTS = 6;
const BATCH_SIZE = 20;

/**
 * A mail's body once it has left (or will never leave): mails carry password-reset and
 * set-password links, and the outbox is a queue, not an archive (issue 13). The row itself stays
 * as the record that, when and to whom it was sent.
 */
const DELIVERED_BODY = { textBody: '', htmlBody: null };

/** Retry delays after a failed attempt: 1 min, 5 min, 30 min, 2 h, 6 h. */
const BACKOFF_SECONDS = [60, 300, 1800, 7200, 21600];

/**
 * Delivers due `pending` outbox rows. Rows are claimed with FOR UPDATE SKIP LOCKED and pushed into the
 * future before sending, so two server instances never send the same mail at once; a crash after the
 * send but before `sent` is written can repeat that one mail, which SMTP's at-least-once model accepts.
 */
export async function dispatchPendingMail(deps: {
  db: Database;
  transport: MailTransport;
  from: string;
  now: () => Date;
  log: FastifyBaseLogger;
  /** Names a refund receipt by its business date (mail-attachments.ts). */
  timeZone: string;
}): Promise<{ sent: number; failed: number }> {
  if (deps.transport.kind !== 'smtp') return { sent: 0, failed: 0 };
  const now = deps.now();
  const claimed = await deps.db.transaction(async (tx) => {
    const due = await tx
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, 'pending'), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt))
      .limit(BATCH_SIZE)
      .for('update', { skipLocked: true });
    if (due.length > 0) {
      // A lease: if this process dies mid-send, the rows become due again in five minutes.
      await tx
        .update(mailOutbox)
        .set({
          nextAttemptAt: new Date(now.getTime() + 300_000),
          attempts: sql`${mailOutbox.attempts} + 1`,
        })
        .where(
          inArray(
            mailOutbox.id,
            due.map((row) => row.id),
          ),
        );
    }
    return due;
  });

  let sent = 0;
  let failed = 0;
  for (const row of claimed) {
    try {
      await deps.transport.send({
        from: deps.from,
        to: row.toAddress,
        replyTo: row.replyTo ?? undefined,
        subject: row.subject,
        text: row.textBody,
        html: row.htmlBody ?? undefined,
        automatic: row.automatic,
        attachments: await loadMailAttachments(deps.db, row, deps.timeZone),
      });
      await deps.db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: deps.now(), lastError: null, ...DELIVERED_BODY })
        .where(eq(mailOutbox.id, row.id));
      sent += 1;
    } catch (error) {
      failed += 1;
      const attempts = row.attempts + 1;
      const giveUp = attempts >= MAX_ATTEMPTS;
      const delay = BACKOFF_SECONDS[Math.min(attempts - 1, BACKOFF_SECONDS.length - 1)] ?? 3600;
      deps.log.warn(
        { mailId: row.id, attempts, err: error },
        giveUp ? 'mail failed for good' : 'mail failed; will retry',
      );
      await deps.db
        .update(mailOutbox)
        .set({
          ...(giveUp ? DELIVERED_BODY : {}),
          status: giveUp ? 'failed' : 'pending',
          lastError: error instanceof Error ? error.message.slice(0, 500) : 'unknown error',
          nextAttemptAt: new Date(deps.now().getTime() + delay * 1000),
        })
        .where(eq(mailOutbox.id, row.id));
    }
  }
  return { sent, failed };
}
