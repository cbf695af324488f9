import { sql } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { formatCurrency } from '@dealerpass/domain/money';
import { COMPLIMENTARY_DETAIL } from '@dealerpass/domain/account/status';
import {
  PRICE_CHANGE_MESSAGES,
  monthlyTotalChange,
  priceChangeProblem,
  priceChangeRows,
  type TSchedulePriceChangeRequest,
} from '@dealerpass/domain/billing/price-change';
import type { IPriceRow } from '@dealerpass/domain/prices';
import { applyPendingRemovals } from '@dealerpass/domain/billing/proration';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { unnestRows } from '../../db/bulk.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { priceChangeNotices, prices, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { enqueueMails, type MailToSend } from '../mail/enqueue-mail.ts';
import { loadPriceTable, type PriceBook } from './price-book.ts';

export interface PriceChangeDeps {
  db: Database;
  now: () => Date;
  timeZone: string;
  mailKind: 'smtp' | 'mailbox';
  company: { name: string; supportPhone: string };
  prices: PriceBook;
}

export interface ScheduledPriceChange {
  effectiveDate: string;
  effectiveFrom: string;
  rows: IPriceRow[];
  /** Accounts e-mailed now (R11: each once). */
  notified: number;
}

/**
 * Schedules a price change (DECISIONS R11, 001 §9): refused less than 30 days ahead; the rows
 * are added to the table (never an edit), and in the same transaction every account whose
 * monthly total changes on that date gets one e-mail with the old and new total and the date.
 * Accounts that do not renew (inactive, complimentary) are not told. `scheduledBy` is 'command'
 * or the staff member's e-mail; `alongside` runs in the same transaction once the change is made
 * (the console's audit row, R12), and rolls all of it back if it throws.
 */
export async function schedulePriceChange(
  deps: PriceChangeDeps,
  request: TSchedulePriceChangeRequest,
  scheduledBy: string,
  alongside?: (tx: Transaction, scheduled: ScheduledPriceChange) => Promise<void>,
): Promise<ScheduledPriceChange> {
  const now = deps.now();
  if (priceChangeProblem(request.effectiveDate, now, deps.timeZone) === 'tooSoon') {
    throw new AppError(ERROR_CODES.PRICE_CHANGE_TOO_SOON, {
      errors: [{ source: 'effectiveDate', message: PRICE_CHANGE_MESSAGES.tooSoon }],
    });
  }
  const rows = priceChangeRows(request, deps.timeZone);
  const effectiveFrom = rows[0]!.from!;
  const notified = await deps.db.transaction(async (tx) => {
    // Two schedules at once must each compare against the other's rows: one at a time.
    await tx.execute(sql`lock table ${prices} in share row exclusive mode`);
    const table = await loadPriceTable(tx);
    await tx.insert(prices).values(
      rows.map((row) => ({
        item: row.item,
        effectiveFrom: new Date(row.from!),
        cents: row.cents,
        scheduledBy,
      })),
    );
    const accounts = await tx
      .select({
        userId: users.id,
        email: users.email,
        firstName: users.firstName,
        status: users.accountStatus,
        details: users.accountStatusDetails,
        codes: subscriptions.codes,
        autoExtras: subscriptions.autoExtras,
        pendingRemovals: subscriptions.pendingRemovals,
      })
      .from(subscriptions)
      .innerJoin(users, sql`${users.id} = ${subscriptions.userId}`);
    const notices: { userId: string; oldTotalCents: number; newTotalCents: number }[] = [];
    const mails = new Map<string, MailToSend>();
    const dateText = formatCalendarDate(parseIsoDate(request.effectiveDate));
    for (const account of accounts) {
      if (account.status === 'inactive') continue;
      if ((account.details ?? '').trim().toLowerCase() === COMPLIMENTARY_DETAIL) continue;
      // What the account pays from its next bill: its selection without the pending removals.
      const codes = applyPendingRemovals(
        {
          codes: account.codes as TSubscriptionCode[],
          autoExtras: account.autoExtras as TSubscriptionCode[],
        },
        account.pendingRemovals,
      ).codes;
      const change = monthlyTotalChange(codes, table, rows, request.effectiveDate);
      if (!change) continue;
      notices.push({ userId: account.userId, ...change });
      mails.set(account.userId, {
        to: account.email,
        subject: `${deps.company.name}: your monthly price changes on ${dateText}`,
        text: [
          `Hello ${account.firstName},`,
          '',
          `From ${dateText}, your monthly total changes from ${formatCurrency(change.oldTotalCents)} to ${formatCurrency(change.newTotalCents)}.`,
          'Your first bill on or after that date is charged at the new price. You can change or cancel your subscriptions at any time in your account.',
          '',
          `Questions? Call ${deps.company.supportPhone}.`,
        ].join('\n'),
      });
    }
    const done = async (count: number) => {
      await alongside?.(tx, {
        effectiveDate: request.effectiveDate,
        effectiveFrom,
        rows,
        notified: count,
      });
      return count;
    };
    if (notices.length === 0) return done(0);
    const values = unnestRows(notices, {
      user_id: ['uuid', (notice) => notice.userId],
      effective_from: ['timestamptz', () => effectiveFrom],
      old_total_cents: ['int', (notice) => notice.oldTotalCents],
      new_total_cents: ['int', (notice) => notice.newTotalCents],
    });
    // Once per account and date: a second change for the same date mails nobody twice.
    const inserted = (await tx.execute(sql`
      insert into ${priceChangeNotices} (${values.names}) ${values.select}
      on conflict do nothing returning user_id`)) as unknown as { rows: { user_id: string }[] };
    const toMail = inserted.rows.map((row) => mails.get(row.user_id)!);
    await enqueueMails(tx, toMail, deps.mailKind);
    return done(toMail.length);
  });
  await deps.prices.refresh();
  return { effectiveDate: request.effectiveDate, effectiveFrom, rows, notified };
}

/** Every scheduled row (the seed's included), newest instant first, for the staff list and the command. */
export async function listPriceChanges(db: Database) {
  return db
    .select({
      item: prices.item,
      effectiveFrom: prices.effectiveFrom,
      cents: prices.cents,
      scheduledBy: prices.scheduledBy,
      createdAt: prices.createdAt,
    })
    .from(prices)
    .orderBy(sql`${prices.effectiveFrom} desc nulls last`, sql`${prices.id} desc`);
}
