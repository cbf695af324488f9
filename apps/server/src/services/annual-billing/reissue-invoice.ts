/**
 * An open invoice always asks for what its year will bill (decision 052, R14): the selection in
 * force at the year's start, at the prices in force then. An issued invoice never changes
 * (decision 041), so when either changes before it is paid (the dealer's change or staff's
 * Adjust, an undone removal, a price change scheduled or withdrawn for a date up to the year's
 * start) the open invoice is voided and a new one issued with the new figures, in the transaction
 * that made the change. A check is then recorded only for the new one's total.
 */
import { and, eq } from 'drizzle-orm';
import {
  annualQuote,
  selectionAtStart,
  type IAnnualQuote,
  type IStoredSelection,
} from '@dealerpass/domain/billing/annual';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TPriceTable } from '@dealerpass/domain/prices';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, invoices, subscriptions, type users } from '../../db/schema.ts';
import { issueInvoice, type InvoiceDeps } from './issue-invoice.ts';
import { businessDate, type InvoiceRow } from './invoice-records.ts';

type UserRow = typeof users.$inferSelect;

/** Why an open invoice is replaced after a change of the selection, as the e-mail says it. */
export const SELECTION_CHANGED = 'Your subscriptions changed';

/** What an open invoice should ask now: the codes and the amounts of its year. */
export interface InvoiceFigures {
  codes: TSubscriptionCode[];
  priced: IAnnualQuote;
}

/** The figures of a year starting `periodStart` for a selection as it is stored now (R14). */
export function invoiceFiguresOf(
  subscription: IStoredSelection,
  periodStart: string,
  timeZone: string,
  table: TPriceTable,
): InvoiceFigures {
  const codes = selectionAtStart(subscription, periodStart);
  return { codes, priced: annualQuote(codes, periodStart, timeZone, table) };
}

/** Whether an invoice already asks for these figures (the same items, lines and total). */
export function asksFor(invoice: InvoiceRow, figures: InvoiceFigures): boolean {
  const sameCodes =
    invoice.codes.length === figures.codes.length &&
    invoice.codes.every((code, i) => code === figures.codes[i]);
  return (
    sameCodes &&
    invoice.totalCents === figures.priced.totalCents &&
    invoice.discountCents === figures.priced.discountCents &&
    JSON.stringify(invoice.lines) === JSON.stringify(figures.priced.lines)
  );
}

/**
 * What a change of the selection would do to the account's open invoice (decision 052), for the
 * change's preview: its number and total and the new total, or null when there is none or its
 * figures stay. `selection` is the selection as the change would store it.
 */
export async function openInvoiceAfter(
  db: Database | Transaction,
  deps: Pick<InvoiceDeps, 'timeZone' | 'prices'>,
  userId: string,
  selection: IStoredSelection,
): Promise<{ number: string; totalCents: number; newTotalCents: number } | null> {
  const [open] = await db
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, userId), eq(invoices.status, 'open')));
  if (!open) return null;
  const figures = invoiceFiguresOf(selection, open.periodStart, deps.timeZone, deps.prices.table());
  if (asksFor(open, figures)) return null;
  return {
    number: open.number,
    totalCents: open.totalCents,
    newTotalCents: figures.priced.totalCents,
  };
}

/** An open invoice replaced by a new one. */
export interface ReissuedInvoice {
  voided: InvoiceRow;
  issued: InvoiceRow;
}

/**
 * The account's open invoice made to ask what its year will bill, in the caller's transaction
 * (which holds the account's lock, decision 028): if its figures are still right, nothing
 * happens (null); else it is voided and a new one issued for the same year, with the new
 * figures. `because` is the e-mail's reason ("Your subscriptions changed"); with `mail: false`
 * nothing is e-mailed here (a price change's notice tells the dealer and carries the invoice).
 */
export async function reissueOpenInvoice(
  tx: Transaction,
  deps: InvoiceDeps,
  input: {
    user: UserRow;
    now: Date;
    because: string;
    /** The price table the year is priced with (a change being scheduled or withdrawn). */
    table?: TPriceTable;
    mail?: boolean;
    /** Who made the change: the dealer, staff, or the price command. */
    actor: 'user' | 'staff' | 'command';
  },
): Promise<ReissuedInvoice | null> {
  const { user, now } = input;
  const [open] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, user.id), eq(invoices.status, 'open')))
    .for('update');
  if (!open) return null;
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, user.id));
  if (!subscription) return null;
  const table = input.table ?? deps.prices.table();
  const figures = invoiceFiguresOf(subscription, open.periodStart, deps.timeZone, table);
  if (asksFor(open, figures)) return null;

  const today = businessDate(now, deps.timeZone);
  // Void first: the one-open-invoice index admits the new one only then.
  await tx
    .update(invoices)
    .set({ status: 'void', voidedOn: today, voidedBy: 'replaced', voidReason: input.because })
    .where(eq(invoices.id, open.id));
  const issued = await issueInvoice(tx, deps, {
    user,
    codes: figures.codes,
    period: { start: open.periodStart, end: open.periodEnd, nextStart: open.nextStart },
    kind: open.kind,
    now,
    table,
    replaces: { number: open.number, totalCents: open.totalCents, because: input.because },
    mail: input.mail ?? true,
  });
  const [voided] = await tx
    .update(invoices)
    .set({ voidReason: `Replaced by invoice ${issued.number}: ${input.because}.` })
    .where(eq(invoices.id, open.id))
    .returning();
  await tx.insert(accountEvents).values({
    userId: user.id,
    event: 'invoice replaced',
    actor: input.actor,
    at: now,
    details: {
      invoiceId: open.id,
      number: open.number,
      totalCents: open.totalCents,
      replacedBy: issued.number,
      replacementId: issued.id,
      replacementTotalCents: issued.totalCents,
      because: input.because,
    },
  });
  return { voided: voided!, issued };
}
