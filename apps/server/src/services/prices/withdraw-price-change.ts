import { and, asc, eq, gt, gte, inArray, ne, sql } from 'drizzle-orm';
import {
  PRICE_WITHDRAWAL_CUTOFF_MINUTES,
  priceChangeWithdrawalMail,
} from '@dealerpass/domain/billing/price-change';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import { isPricedItem, type IPriceRow } from '@dealerpass/domain/prices';
import {
  formatCalendarDate,
  parseIsoDate,
  startOfDayIn,
} from '@dealerpass/domain/time/calendar-date';
import type { Transaction } from '../../db/client.ts';
import { invoices, priceChangeNotices, prices, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import type { ReissuedInvoice } from '../annual-billing/reissue-invoice.ts';
import { enqueueMails, type MailToSend } from '../mail/enqueue-mail.ts';
import { loadPriceTable } from './price-book.ts';
import { repriceInvoice, type PriceChangeDeps } from './schedule-price-change.ts';

export interface WithdrawnPriceChange {
  effectiveDate: string;
  effectiveFrom: string;
  /** The rows taken out of the table. */
  rows: IPriceRow[];
  /** Accounts told of the change and now e-mailed its withdrawal (R11 amended). */
  notified: number;
}

/**
 * Withdraws a change still ahead (R11 amended, docs/decisions/032): its rows leave the table (a
 * row that has not taken effect was never in force, so nothing charged is edited, R11), and every
 * account told of it (at scheduling or in its welcome e-mail) is e-mailed the withdrawal, once:
 * its notice row goes in the same transaction. A date with nothing ahead (or less than
 * `PRICE_WITHDRAWAL_CUTOFF_MINUTES` ahead) is a 409. `alongside`
 * writes the console's audit row in the same transaction (R12).
 */
export async function withdrawPriceChange(
  deps: PriceChangeDeps,
  effectiveDate: string,
  alongside?: (tx: Transaction, withdrawn: WithdrawnPriceChange) => Promise<void>,
): Promise<WithdrawnPriceChange> {
  const date = parseIsoDate(effectiveDate);
  if (!date) throw new AppError(ERROR_CODES.PRICE_CHANGE_NOT_WITHDRAWABLE);
  const at = startOfDayIn(date, deps.timeZone);
  const effectiveFrom = at.toISOString();
  const withdrawn = await deps.db.transaction(async (tx) => {
    // The scheduling's lock: a change and its withdrawal for one date never interleave.
    await tx.execute(sql`lock table ${prices} in share row exclusive mode`);
    // Until its date (R11): a change that has taken effect is never edited, and one about to is
    // left alone so no instance's copy of the table still holds it then.
    const cutoff = new Date(deps.now().getTime() + PRICE_WITHDRAWAL_CUTOFF_MINUTES * 60_000);
    const removed = await tx
      .delete(prices)
      .where(
        and(
          eq(prices.effectiveFrom, at),
          gt(prices.effectiveFrom, cutoff),
          ne(prices.scheduledBy, 'seed'),
        ),
      )
      .returning({ item: prices.item, cents: prices.cents });
    if (removed.length === 0) throw new AppError(ERROR_CODES.PRICE_CHANGE_NOT_WITHDRAWABLE);
    const told = await tx
      .delete(priceChangeNotices)
      .where(eq(priceChangeNotices.effectiveFrom, at))
      .returning({
        userId: priceChangeNotices.userId,
        oldTotalCents: priceChangeNotices.oldTotalCents,
        newTotalCents: priceChangeNotices.newTotalCents,
      });
    const people =
      told.length === 0
        ? []
        : await tx
            .select({ id: users.id, email: users.email, firstName: users.firstName })
            .from(users)
            .where(
              inArray(
                users.id,
                told.map((notice) => notice.userId),
              ),
            );
    const byId = new Map(people.map((person) => [person.id, person]));
    // R14: an open invoice whose year starts on or after the date was priced with the change; it
    // goes back to the prices that stay (decision 052), told with the withdrawal if the account
    // was told of the change, else by the invoice's own e-mail.
    const toldIds = new Set(told.map((notice) => notice.userId));
    const table = await loadPriceTable(tx);
    const repriced = await tx
      .select({ userId: invoices.userId })
      .from(invoices)
      .where(and(eq(invoices.status, 'open'), gte(invoices.periodStart, effectiveDate)))
      .orderBy(asc(invoices.userId));
    const replacements = new Map<string, ReissuedInvoice>();
    for (const { userId } of repriced) {
      const reissued = await repriceInvoice(tx, deps, userId, {
        because: `The price change of ${formatCalendarDate(date)} is withdrawn`,
        table,
        mail: !toldIds.has(userId),
        actor: 'staff',
        now: deps.now(),
      });
      if (reissued) replacements.set(userId, reissued);
    }
    const mails = told.flatMap((notice): MailToSend[] => {
      const person = byId.get(notice.userId);
      if (!person) return [];
      const reissued = replacements.get(notice.userId);
      return [
        {
          to: person.email,
          content: priceChangeWithdrawalMail({
            company: deps.company,
            firstName: person.firstName,
            change: { ...notice, effectiveDate },
            replacement: reissued && {
              oldNumber: reissued.voided.number,
              oldTotalCents: reissued.voided.totalCents,
              newNumber: reissued.issued.number,
              newTotalCents: reissued.issued.totalCents,
              periodStart: reissued.issued.periodStart,
            },
          }),
          invoiceId: reissued?.issued.id,
        },
      ];
    });
    await enqueueMails(tx, mails, deps.mailKind);
    const result: WithdrawnPriceChange = {
      effectiveDate,
      effectiveFrom,
      rows: removed.flatMap((row) =>
        isPricedItem(row.item) ? [{ item: row.item, from: effectiveFrom, cents: row.cents }] : [],
      ),
      notified: mails.length,
    };
    await alongside?.(tx, result);
    return result;
  });
  await deps.prices.refresh();
  return withdrawn;
}
