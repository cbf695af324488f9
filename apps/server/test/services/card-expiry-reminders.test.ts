/**
 * Issue 27 item 12: card expiry reminders 30 and 7 days before the card's last valid day, to
 * accounts charged after it, once per card and threshold whatever instances run the job.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { openDatabase } from '../../src/db/client.ts';
import { cardExpiryReminders, mailOutbox, subscriptions, users } from '../../src/db/schema.ts';
import {
  remindExpiringCards,
  type CardExpiryReminderDeps,
} from '../../src/services/billing/remind-expiring-cards.ts';
import { buildTestApp, type TestApp } from '../support/helper.ts';
import { createAccount } from '../factories/sign-in.ts';

/** Noon in New York on the day `days` before Dec 31, 2026 (a card '1226' is valid through it). */
const daysBefore = (days: number) => new Date(Date.UTC(2026, 11, 31 - days, 17, 0, 0));

describe('card expiry reminders', () => {
  let t: TestApp;
  let now = daysBefore(40);
  beforeAll(async () => {
    t = await buildTestApp({ now: () => now });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.app.db.delete(mailOutbox);
  });

  const deps = (): CardExpiryReminderDeps => ({
    db: t.app.db,
    now: () => now,
    timeZone: 'America/New_York',
    mailKind: 'mailbox',
    company: { name: 'DealerPass', supportPhone: '1-800-555-0199' },
    publicUrl: 'https://dealerpass.example',
  });

  let counter = 0;
  /** An account with a card '1226' ending in 4242 and a monthly subscription (billed). */
  async function account(fields: Partial<typeof users.$inferInsert> = {}, billed = true) {
    counter += 1;
    const { user } = await createAccount(t, {
      email: `expiry-${counter}@example.com`,
      withIdentity: false,
      accountStatus: ACCOUNT_STATUS.active,
      cardBrand: 'visa',
      cardLast4: '4242',
      cardExpiration: '1226',
      nextBillDate: billed ? '2026-12-15' : null,
      ...fields,
    });
    if (billed)
      await t.app.db.insert(subscriptions).values({
        userId: user.id,
        codes: ['NADA', 'MMR'],
        cycleAnchor: '2026-01-15',
        currentPeriodStart: '2026-11-15',
        currentPeriodEnd: '2026-12-15',
      });
    return user;
  }

  const mailsTo = async (email: string) =>
    t.app.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));

  it('sends the 30-day reminder from 30 days before (not at 31), once, and the 7-day one from 7 (not at 8)', async () => {
    const user = await account();
    for (const [days, expected] of [
      [31, 0],
      [30, 1],
      [29, 1],
      [8, 1],
      [7, 2],
      [6, 2],
      [0, 2],
    ] as const) {
      now = daysBefore(days);
      await remindExpiringCards(deps());
      expect(await mailsTo(user.email), `${days} days before`).toHaveLength(expected);
    }
    const reminders = await t.app.db
      .select()
      .from(cardExpiryReminders)
      .where(eq(cardExpiryReminders.userId, user.id));
    expect(reminders.map((row) => row.thresholdDays).sort()).toEqual([30, 7]);
  });

  it('a 30-day reminder missed on its day is sent the day after; one missed until 7 days is not sent beside the 7-day one', async () => {
    const late = await account();
    now = daysBefore(29);
    await remindExpiringCards(deps());
    expect(await mailsTo(late.email)).toHaveLength(1);
    // A card added 5 days before it expires (or a job stopped for weeks): the 7-day one only.
    const later = await account();
    now = daysBefore(5);
    await remindExpiringCards(deps());
    expect(await mailsTo(later.email)).toHaveLength(1);
    const [row] = await t.app.db
      .select()
      .from(cardExpiryReminders)
      .where(eq(cardExpiryReminders.userId, later.id));
    expect(row?.thresholdDays).toBe(7);
  });

  it("asks for a new card in the specification's words, with a link to Billing Details", async () => {
    const user = await account({ firstName: 'Ada', cardLast4: '1881' });
    now = daysBefore(30);
    expect(await remindExpiringCards(deps())).toBeGreaterThanOrEqual(1);
    const [mail] = await mailsTo(user.email);
    expect(mail?.subject).toBe('DealerPass: your Visa ending in 1881 expires on Dec 31, 2026');
    expect(mail?.textBody).toBe(
      [
        'Hello Ada,',
        '',
        'The Visa ending in 1881 on file for your DealerPass account expires on Dec 31, 2026. Your subscriptions renew every month, and a bill after that date cannot be charged to this card.',
        // 001 §4, verbatim.
        'Please update your credit card information or call customer support toll free at 1-800-555-0199.',
        '',
        'To enter a new card, open Billing Details in your account:',
        'https://dealerpass.example/account/billing',
      ].join('\n'),
    );
    expect(mail?.htmlBody).toContain('href="https://dealerpass.example/account/billing"');
    expect(mail?.automatic).toBe(true);
  });

  it('a card replaced after the first reminder gets reminders of its own', async () => {
    const user = await account();
    now = daysBefore(30);
    await remindExpiringCards(deps());
    expect(await mailsTo(user.email)).toHaveLength(1);
    // A new card that expires the same month (a reissued card with other digits).
    await t.app.db.update(users).set({ cardLast4: '0005' }).where(eq(users.id, user.id));
    now = daysBefore(29);
    await remindExpiringCards(deps());
    const mails = await mailsTo(user.email);
    expect(mails).toHaveLength(2);
    expect(mails.map((mail) => mail.subject)).toContain(
      'DealerPass: your Visa ending in 0005 expires on Dec 31, 2026',
    );
    // A new card valid for years is not reminded at all.
    await t.app.db.update(users).set({ cardExpiration: '1230' }).where(eq(users.id, user.id));
    now = daysBefore(7);
    await remindExpiringCards(deps());
    expect(await mailsTo(user.email)).toHaveLength(2);
  });

  it('an account that will not be charged after the card expires gets nothing', async () => {
    const nobody = [
      await account({ complimentary: true }),
      await account({ accountStatus: ACCOUNT_STATUS.inactive, nextBillDate: null }),
      await account({ accountStatus: ACCOUNT_STATUS.pendingCancel }),
      await account({ accountStatus: ACCOUNT_STATUS.blocked }),
      await account({}, false), // no subscription billed
    ];
    const charged = await account({ accountStatus: ACCOUNT_STATUS.validatingPayment });
    for (const days of [30, 7]) {
      now = daysBefore(days);
      await remindExpiringCards(deps());
    }
    for (const user of nobody) expect(await mailsTo(user.email), user.email).toHaveLength(0);
    expect(await mailsTo(charged.email)).toHaveLength(2);
  });

  it('two instances running the job at once send one e-mail per card and threshold', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, () => account()));
    now = daysBefore(30);
    // With PostgreSQL, a second connection pool runs truly in parallel; PGlite serializes them.
    const other = t.databaseUrl ? await openDatabase({ databaseUrl: t.databaseUrl }) : null;
    try {
      const sent = await Promise.all([
        remindExpiringCards(deps()),
        remindExpiringCards({ ...deps(), ...(other ? { db: other.db } : {}) }),
        remindExpiringCards(deps()),
      ]);
      expect(sent.reduce((sum, count) => sum + count, 0)).toBe(users.length);
    } finally {
      await other?.close();
    }
    for (const user of users) expect(await mailsTo(user.email)).toHaveLength(1);
  });
});
