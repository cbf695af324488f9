import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import {
  cardLastValidDay,
  dueCardExpiryReminder,
  expiryMonthsToRemind,
  isChargedAfterCardExpiry,
} from '@dealerpass/domain/billing/card-expiry';
import { calendarDateIn } from '@dealerpass/domain/time/calendar-date';
import { unnestRows } from '../../db/bulk.ts';
import type { Database } from '../../db/client.ts';
import { cardExpiryReminders, subscriptions, users } from '../../db/schema.ts';
import { enqueueMails, type MailToSend } from '../mail/enqueue-mail.ts';
import { cardExpiryMail } from '../mail/messages/card-expiry-mail.ts';

export interface CardExpiryReminderDeps {
  db: Database;
  now: () => Date;
  /** R4's business time zone: the day a card's last valid day is counted from. */
  timeZone: string;
  mailKind: 'smtp' | 'mailbox';
  company: { name: string; supportPhone: string };
  publicUrl: string;
}

/**
 * The daily card expiry reminders (issue 27 item 12, docs/decisions/044): every account that
 * will be charged after its card's last valid day (the domain's `isChargedAfterCardExpiry`)
 * gets one e-mail per card and threshold (30 and 7 days before, `dueCardExpiryReminder`).
 * The `card_expiry_reminders` row is claimed with `on conflict do nothing` in the transaction
 * that writes the e-mails: two instances running the job at once send each reminder once (the
 * second waits on the first's rows and claims none). Nothing here touches money or a status, so
 * no account lock is taken. Returns how many were sent.
 */
export async function remindExpiringCards(deps: CardExpiryReminderDeps): Promise<number> {
  const today = calendarDateIn(deps.now(), deps.timeZone);
  const cards = await deps.db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      status: users.accountStatus,
      complimentary: users.complimentary,
      nextBillDate: users.nextBillDate,
      subscribed: subscriptions.userId,
      cardBrand: users.cardBrand,
      cardLast4: users.cardLast4,
      cardExpiration: users.cardExpiration,
    })
    .from(users)
    .leftJoin(subscriptions, eq(subscriptions.userId, users.id))
    .where(
      and(inArray(users.cardExpiration, expiryMonthsToRemind(today)), isNotNull(users.cardLast4)),
    );
  const due = cards.flatMap((card) => {
    const threshold = dueCardExpiryReminder(card.cardExpiration!, today);
    const lastValidDay = cardLastValidDay(card.cardExpiration!);
    const charged = isChargedAfterCardExpiry({
      status: card.status,
      complimentary: card.complimentary,
      billed: card.subscribed !== null && card.nextBillDate !== null,
    });
    if (threshold === null || lastValidDay === null || !charged) return [];
    return [{ ...card, cardLast4: card.cardLast4!, threshold, lastValidDay }];
  });
  if (due.length === 0) return 0;

  return deps.db.transaction(async (tx) => {
    const rows = unnestRows(due, {
      user_id: ['uuid', (card) => card.userId],
      card_last4: ['text', (card) => card.cardLast4],
      card_expiration: ['text', (card) => card.cardExpiration],
      threshold_days: ['int', (card) => card.threshold],
    });
    const claimed = (await tx.execute(sql`
      insert into ${cardExpiryReminders} (${rows.names}) ${rows.select}
      on conflict do nothing
      returning user_id, card_last4, card_expiration, threshold_days`)) as unknown as {
      rows: {
        user_id: string;
        card_last4: string;
        card_expiration: string;
        threshold_days: number;
      }[];
    };
    const keyOf = (userId: string, last4: string, expiration: string, threshold: number) =>
      `${userId}|${last4}|${expiration}|${threshold}`;
    const byKey = new Map(
      due.map((card) => [
        keyOf(card.userId, card.cardLast4, card.cardExpiration!, card.threshold),
        card,
      ]),
    );
    const mails: MailToSend[] = claimed.rows.flatMap((row) => {
      const card = byKey.get(
        keyOf(row.user_id, row.card_last4, row.card_expiration, row.threshold_days),
      );
      if (!card) return [];
      return [
        {
          to: card.email,
          content: cardExpiryMail({
            company: deps.company,
            publicUrl: deps.publicUrl,
            firstName: card.firstName,
            card: { brand: card.cardBrand, last4: card.cardLast4 },
            lastValidDay: card.lastValidDay,
          }),
        },
      ];
    });
    await enqueueMails(tx, mails, deps.mailKind);
    return mails.length;
  });
}
