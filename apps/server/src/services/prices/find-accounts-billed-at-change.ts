import { eq, inArray, sql } from 'drizzle-orm';
import { RENEWING_STATUSES } from '@dealerpass/domain/account/status-transitions';
import {
  ANNUAL_MONTHS,
  discountedCents,
  firstAnnualStartOnOrAfter,
  type IAnnualQuote,
} from '@dealerpass/domain/billing/annual';
import {
  isBilledAtChange,
  monthlyTotalChangeAt,
  type IMonthlyTotalChange,
  type TAnnualNotice,
} from '@dealerpass/domain/billing/price-change';
import { applyPendingRemovals } from '@dealerpass/domain/billing/proration';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TPriceTable } from '@dealerpass/domain/prices';
import { addDays, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../db/client.ts';
import { invoices, subscriptions, users } from '../../db/schema.ts';
import { annualPeriodOf } from '../annual-billing/invoice-records.ts';
import { asksFor, invoiceFiguresOf } from '../annual-billing/reissue-invoice.ts';

export interface AccountBilledAtChange {
  userId: string;
  email: string;
  firstName: string;
  change: IMonthlyTotalChange;
  /** What the change means for an account billed annually by check (decision 052), if it is. */
  annual: TAnnualNotice | null;
  /** Its open invoice, when the change reprices it (the scheduling replaces it). */
  repricedInvoiceId: string | null;
}

const dayAfter = (date: string) => toIsoDate(addDays(parseIsoDate(date)!, 1));

/**
 * The accounts a price change reaches (R11 amended, docs/decisions/032): those that will be
 * billed at its prices (the domain's `isBilledAtChange`) and whose monthly total it moves, with
 * the old and new total; and those billed annually by check whose open invoice it reprices (its
 * year starts on or after the date, R14: priced at the prices in force then; decision 052).
 * `table` holds the change's rows. The one query behind scheduling, its preview and the console's
 * count, so the three cannot count differently.
 */
export async function findAccountsBilledAtChange(
  db: Database | Transaction,
  table: TPriceTable,
  change: { effectiveFrom: string; effectiveDate: string; today: string; timeZone: string },
): Promise<AccountBilledAtChange[]> {
  const accounts = await db
    .select({
      userId: users.id,
      email: users.email,
      firstName: users.firstName,
      status: users.accountStatus,
      complimentary: users.complimentary,
      codes: subscriptions.codes,
      autoExtras: subscriptions.autoExtras,
      pendingRemovals: subscriptions.pendingRemovals,
      pendingRemovalsAt: subscriptions.pendingRemovalsAt,
      periodEnd: subscriptions.currentPeriodEnd,
      cycleAnchor: subscriptions.cycleAnchor,
      annualPeriodStart: subscriptions.annualPeriodStart,
      annualPeriodEnd: subscriptions.annualPeriodEnd,
    })
    .from(subscriptions)
    .innerJoin(users, sql`${users.id} = ${subscriptions.userId}`)
    .where(inArray(users.accountStatus, [...RENEWING_STATUSES]))
    .orderBy(users.email);
  // R14: the open invoices (one per account at most), few beside the accounts.
  const open = await db.select().from(invoices).where(eq(invoices.status, 'open'));
  const openOf = new Map(open.map((invoice) => [invoice.userId, invoice]));
  // Many accounts hold the same selection: each distinct one is priced once.
  const moved = new Map<string, IMonthlyTotalChange | null>();
  return accounts.flatMap((account): AccountBilledAtChange[] => {
    const standing = {
      status: account.status,
      complimentary: account.complimentary,
      periodEnd: account.periodEnd,
    };
    if (!isBilledAtChange(standing, change.effectiveDate)) return [];
    const person = { userId: account.userId, email: account.email, firstName: account.firstName };
    const invoice = openOf.get(account.userId);
    if (invoice && invoice.periodStart >= change.effectiveDate) {
      // The invoice's year is priced at the change: it is replaced if its figures move.
      const figures = invoiceFiguresOf(account, invoice.periodStart, change.timeZone, table);
      if (asksFor(invoice, figures)) return [];
      const before = invoice.quote as IAnnualQuote;
      return [
        {
          ...person,
          change: {
            oldTotalCents: before.monthlyTotalCents,
            newTotalCents: figures.priced.monthlyTotalCents,
            effectiveDate: change.effectiveDate,
          },
          annual: {
            kind: 'invoiceRepriced',
            invoice: {
              number: invoice.number,
              totalCents: invoice.totalCents,
              periodStart: invoice.periodStart,
              dueOn: invoice.dueOn,
            },
            newNumber: null,
            newTotalCents: figures.priced.totalCents,
          },
          repricedInvoiceId: invoice.id,
        },
      ];
    }
    // What the account pays from its next bill: its selection without the pending removals.
    const codes = applyPendingRemovals(
      {
        codes: account.codes as TSubscriptionCode[],
        autoExtras: account.autoExtras as TSubscriptionCode[],
      },
      account.pendingRemovals,
    ).codes;
    const key = [...codes].sort().join(',');
    if (!moved.has(key)) {
      moved.set(
        key,
        monthlyTotalChangeAt(codes, table, change.effectiveFrom, change.effectiveDate),
      );
    }
    const total = moved.get(key);
    if (!total) return [];
    // A year paid by check, or invoiced, that starts before the date: billed nothing at the new
    // prices during it (R14); a renewal by check pays them from the first year on or after it.
    const paid = annualPeriodOf(account, change.today);
    const yearsFrom = invoice ? invoice.nextStart : paid ? dayAfter(paid.end) : null;
    const annual: TAnnualNotice | null =
      yearsFrom === null
        ? null
        : {
            kind: 'yearUnchanged',
            paidThrough: paid?.end ?? null,
            invoice: invoice
              ? {
                  number: invoice.number,
                  totalCents: invoice.totalCents,
                  periodStart: invoice.periodStart,
                }
              : null,
            annualFrom: firstAnnualStartOnOrAfter(
              account.cycleAnchor,
              yearsFrom,
              change.effectiveDate,
            ),
            oldAnnualCents: discountedCents(total.oldTotalCents * ANNUAL_MONTHS),
            newAnnualCents: discountedCents(total.newTotalCents * ANNUAL_MONTHS),
          };
    return [{ ...person, change: total, annual, repricedInvoiceId: null }];
  });
}
