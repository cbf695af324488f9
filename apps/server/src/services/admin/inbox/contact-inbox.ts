import { asc, desc, eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { Database } from '../../../db/client.ts';
import { contactReplies, contactRequests } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';

/** Messages one inbox page lists, newest first. */
const INBOX_LIMIT = 200;

type ContactRow = typeof contactRequests.$inferSelect;

function summary(row: ContactRow) {
  return {
    id: row.id,
    fullName: row.fullName,
    email: row.email,
    queryType: row.queryType,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    answeredAt: row.answeredAt?.toISOString() ?? null,
  };
}

/** The Contact Us inbox (R12): new or answered messages, or both, newest first. */
export async function listContactMessages(db: Database, status?: 'new' | 'answered') {
  const rows = await db
    .select()
    .from(contactRequests)
    .where(status ? eq(contactRequests.status, status) : undefined)
    .orderBy(desc(contactRequests.createdAt))
    .limit(INBOX_LIMIT);
  return rows.map(summary);
}

/** One message with its replies, oldest reply first. */
export async function getContactMessage(db: Database, id: string) {
  const [row] = await db.select().from(contactRequests).where(eq(contactRequests.id, id));
  if (!row) throw new AppError(ERROR_CODES.NOT_FOUND);
  const replies = await db
    .select()
    .from(contactReplies)
    .where(eq(contactReplies.contactRequestId, id))
    .orderBy(asc(contactReplies.createdAt));
  return {
    ...summary(row),
    phoneCountry: row.phoneCountry,
    phoneNumber: row.phoneNumber,
    auctionAccessNumber: row.auctionAccessNumber,
    comments: row.comments,
    source: row.source,
    replies: replies.map((reply) => ({
      id: reply.id,
      staffEmail: reply.staffEmail,
      body: reply.body,
      createdAt: reply.createdAt.toISOString(),
    })),
  };
}
