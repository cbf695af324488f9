import { eq, sql } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TContactReplyRequest } from '@dealerpass/domain/admin/console-requests';
import type { Database } from '../../../db/client.ts';
import { contactReplies, contactRequests } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { enqueueMail } from '../../mail/enqueue-mail.ts';
import { contactReplyMail } from '../../mail/messages/contact-reply-mail.ts';
import { writeStaffAudit, type StaffActor } from '../audit/staff-audit.ts';
import { oncePerKey } from '../../request-keys/once-per-key.ts';

export interface ContactReplyResult {
  auditId: number;
  replyId: string;
}

/**
 * A staff reply to a Contact Us message (R12): stored, e-mailed to the sender through the outbox
 * and the message marked answered, with the audit row, in one transaction. A repeated request
 * sends no second mail; its key on another message or with another text is 409 (decision 031).
 */
export async function replyToContact(
  deps: {
    db: Database;
    now: () => Date;
    mailKind: 'smtp' | 'mailbox';
    company: { name: string; supportPhone: string };
  },
  actor: StaffActor,
  messageId: string,
  request: TContactReplyRequest,
): Promise<ContactReplyResult> {
  const now = deps.now();
  const keyed = {
    owner: actor,
    action: 'replyToContact',
    target: { id: messageId },
    body: request,
  };
  return oncePerKey<ContactReplyResult>(deps.db, keyed, {
    act: async (tx) => {
      const [message] = await tx
        .select()
        .from(contactRequests)
        .where(eq(contactRequests.id, messageId))
        .for('update');
      if (!message) throw new AppError(ERROR_CODES.NOT_FOUND);
      const [reply] = await tx
        .insert(contactReplies)
        .values({
          contactRequestId: message.id,
          staffId: actor.staffId,
          staffEmail: actor.email,
          body: request.body,
          createdAt: now,
        })
        .returning({ id: contactReplies.id });
      await enqueueMail(
        tx,
        {
          to: message.email,
          content: contactReplyMail({
            company: deps.company,
            fullName: message.fullName,
            body: request.body,
            comments: message.comments,
          }),
          // Written by a person: no Auto-Submitted header, so the dealer's own auto-reply (an
          // out-of-office) answers it as it would any colleague's (decision 044).
          automatic: false,
        },
        deps.mailKind,
      );
      await tx
        .update(contactRequests)
        .set({
          status: 'answered',
          answeredAt: sql`coalesce(${contactRequests.answeredAt}, ${now.toISOString()}::timestamptz)`,
        })
        .where(eq(contactRequests.id, message.id));
      const audit = await writeStaffAudit(tx, {
        actor,
        action: 'replyToContact',
        before: { messageId: message.id, status: message.status },
        after: { messageId: message.id, status: 'answered', replyId: reply!.id },
        requestKey: request.requestKey,
        at: now,
      });
      return { auditId: audit.id, replyId: reply!.id };
    },
  });
}
