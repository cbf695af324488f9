import { sql } from 'drizzle-orm';
import {
  PRICE_CHANGE_MESSAGES,
  priceChangeNoticeMail,
  priceChangeProblem,
  priceChangeRows,
  type TSchedulePriceChangeRequest,
} from '@dealerpass/domain/billing/price-change';
import type { IPriceRow, TPriceTable } from '@dealerpass/domain/prices';
import {
  calendarDateIn,
  formatCalendarDate,
  parseIsoDate,
  toIsoDate,
} from '@dealerpass/domain/time/calendar-date';
import type { InvoicingConfig } from '../../config.ts';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { unnestRows } from '../../db/bulk.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { priceChangeNotices, prices } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { enqueueMails, type MailToSend } from '../mail/enqueue-mail.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { reissueOpenInvoice, type ReissuedInvoice } from '../annual-billing/reissue-invoice.ts';
import { findAccountsBilledAtChange } from './find-accounts-billed-at-change.ts';
import { loadPriceTable, type PriceBook } from './price-book.ts';

export interface PriceChangeDeps {
  db: Database;
  now: () => Date;
  timeZone: string;
  mailKind: 'smtp' | 'mailbox';
  company: { name: string; supportPhone: string };
  prices: PriceBook;
  /** R14's invoices, replaced when a change reprices them (DEFAULT_INVOICING when not given). */
  invoicing?: InvoicingConfig;
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
 * Only accounts that will be billed at the new price are told (R11 amended: not inactive, not
 * complimentary, not pending cancel ending before the date; `findAccountsBilledAtChange`).
 * `scheduledBy` is 'command' or the staff member's e-mail; `alongside` runs in the same
 * transaction once the change is made (the console's audit row, R12), and rolls all of it back
 * if it throws.
 */
export async function schedulePriceChange(
  deps: PriceChangeDeps,
  request: TSchedulePriceChangeRequest,
  scheduledBy: string,
  alongside?: (tx: Transaction, scheduled: ScheduledPriceChange) => Promise<void>,
): Promise<ScheduledPriceChange> {
  const { rows, effectiveFrom } = priceChangeOf(request, deps.now(), deps.timeZone);
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
    const newTable = [...table, ...rows];
    const now = deps.now();
    const reached = await findAccountsBilledAtChange(tx, newTable, {
      effectiveFrom,
      effectiveDate: request.effectiveDate,
      today: toIsoDate(calendarDateIn(now, deps.timeZone)),
      timeZone: deps.timeZone,
    });
    const notices = reached.map((account) => ({ userId: account.userId, ...account.change }));
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
    const told = new Set(inserted.rows.map((row) => row.user_id));
    // R14: an open invoice whose year the change prices is replaced now (decision 052); the
    // notice carries the new one, or, to an account told already, the invoice's own e-mail. The
    // accounts are locked in the order of their ids, as a batch of the billing run locks them.
    const replaced = new Map<string, ReissuedInvoice>();
    const repriced = reached
      .filter((account) => account.repricedInvoiceId !== null)
      .sort((a, b) => (a.userId < b.userId ? -1 : 1));
    for (const account of repriced) {
      const reissued = await repriceInvoice(tx, deps, account.userId, {
        because: `The prices change on ${formatCalendarDate(parseIsoDate(request.effectiveDate))}`,
        table: newTable,
        mail: !told.has(account.userId),
        actor: scheduledBy === 'command' ? 'command' : 'staff',
        now,
      });
      if (reissued) replaced.set(account.userId, reissued);
    }
    const toMail = reached
      .filter((account) => told.has(account.userId))
      .map((account): MailToSend => {
        const reissued = replaced.get(account.userId);
        // A repriced invoice paid or voided meanwhile: the notice of the monthly totals.
        const annual =
          account.annual?.kind === 'invoiceRepriced'
            ? reissued
              ? { ...account.annual, newNumber: reissued.issued.number }
              : null
            : account.annual;
        return {
          to: account.email,
          content: priceChangeNoticeMail({ ...deps, ...account, annual }),
          invoiceId: reissued?.issued.id,
        };
      });
    await enqueueMails(tx, toMail, deps.mailKind);
    return done(toMail.length);
  });
  await deps.prices.refresh();
  return { effectiveDate: request.effectiveDate, effectiveFrom, rows, notified };
}

/**
 * An account's open invoice made to ask for the prices a change puts in force at its year's
 * start (R14), under the account's lock (taken after the price table's, which no account's
 * transaction takes: decision 028's order holds). Null when it already does, or is no longer open.
 */
export async function repriceInvoice(
  tx: Transaction,
  deps: PriceChangeDeps,
  userId: string,
  input: {
    because: string;
    table: TPriceTable;
    mail: boolean;
    actor: 'staff' | 'command';
    now: Date;
  },
): Promise<ReissuedInvoice | null> {
  const user = await lockAccount(tx, userId);
  if (!user) return null;
  return reissueOpenInvoice(tx, deps, { user, ...input });
}

/** A change's rows and instant, refused less than 30 days ahead (R11): its preview's too. */
export function priceChangeOf(
  request: TSchedulePriceChangeRequest,
  now: Date,
  timeZone: string,
): { rows: IPriceRow[]; effectiveFrom: string } {
  if (priceChangeProblem(request.effectiveDate, now, timeZone) === 'tooSoon') {
    throw new AppError(ERROR_CODES.PRICE_CHANGE_TOO_SOON, {
      errors: [{ source: 'effectiveDate', message: PRICE_CHANGE_MESSAGES.tooSoon }],
    });
  }
  const rows = priceChangeRows(request, timeZone);
  return { rows, effectiveFrom: rows[0]!.from! };
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
