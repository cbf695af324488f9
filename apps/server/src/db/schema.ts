import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The database schema. `npm run db:generate -w @dealerpass/server` turns changes here into a new
 * SQL migration under apps/server/drizzle; the server applies pending migrations at start.
 */

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** Messages sent through the Contact Us form (001 §3). */
export const contactRequests = pgTable('contact_requests', {
  id: uuid('id')
    .primaryKey()
    .default(sql`gen_random_uuid()`),
  fullName: text('full_name').notNull(),
  email: text('email').notNull(),
  phoneCountry: text('phone_country').notNull(),
  phoneNumber: text('phone_number').notNull(),
  queryType: text('query_type').notNull(),
  auctionAccessNumber: text('auction_access_number'),
  comments: text('comments').notNull(),
  source: text('source').notNull(),
  createdAt: createdAt(),
});

/**
 * Every e-mail we send, written in the same transaction as the change that causes it (outbox).
 * With SMTP configured a dispatcher delivers pending rows; without it the rows are the embedded
 * mailbox (DECISIONS R8).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id')
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    toAddress: text('to_address').notNull(),
    replyTo: text('reply_to'),
    subject: text('subject').notNull(),
    textBody: text('text_body').notNull(),
    htmlBody: text('html_body'),
    /** pending → sent, or failed after the last attempt; `stored` when kept in the embedded mailbox. */
    status: text('status', { enum: ['pending', 'sent', 'failed', 'stored'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index('mail_outbox_pending_idx').on(table.status, table.nextAttemptAt)],
);

/** A solved captcha is accepted once: its signature is recorded until it would have expired anyway. */
export const captchaRedemptions = pgTable('captcha_redemptions', {
  signature: text('signature').primaryKey(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  redeemedAt: timestamp('redeemed_at', { withTimezone: true }).notNull().defaultNow(),
});
