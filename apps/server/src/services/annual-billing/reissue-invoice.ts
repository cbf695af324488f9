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
  annualPeriodFor,
  annualQuote,
  selectionAtStart,
  type IAnnualPeriodDates,
  type IAnnualQuote,
  type IStoredSelection,
} from '@dealerpass/domain/billing/annual';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import type { TPriceTable } from '@dealerpass/domain/prices';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, invoices, subscriptions, type users } from '../../db/schema.ts';
import { issueInvoice, type InvoiceDeps } from './issue-invoice.ts';
import { businessDate, type InvoiceRow } from './invoice-records.ts';
import { voidOpenInvoice } from './void-invoice.ts';

type UserRow = typeof users.$inferSelect;

/** Why an open invoice is replaced after a change of the selection, as the e-mail says it. */
export const SELECTION_CHANGED = 'Your subscriptions changed';

/** Why an open invoice is replaced when a reactivation starts a new cycle (decision 054). */
export const NEW_BILLING_DAY = 'Your account was reactivated with a new billing day';

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
    /**
     * The year the invoice is for, when it moves (a reactivation's new cycle, decision 054);
     * otherwise the open invoice's own.
     */
    period?: IAnnualPeriodDates;
    /** Who made the change: the dealer, staff, the price command, or the run. */
    actor: 'user' | 'staff' | 'command' | 'billing-run';
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
  const period = input.period ?? {
    start: open.periodStart,
    end: open.periodEnd,
    nextStart: open.nextStart,
  };
  const figures = invoiceFiguresOf(subscription, period.start, deps.timeZone, table);
  if (open.periodStart === period.start && asksFor(open, figures)) return null;

  const today = businessDate(now, deps.timeZone);
  // Void first: the one-open-invoice index admits the new one only then.
  await tx
    .update(invoices)
    .set({ status: 'void', voidedOn: today, voidedBy: 'replaced', voidReason: input.because })
    .where(eq(invoices.id, open.id));
  const issued = await issueInvoice(tx, deps, {
    user,
    codes: figures.codes,
    period,
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
      ...(issued.periodStart === open.periodStart
        ? {}
        : { periodStart: open.periodStart, replacementPeriodStart: issued.periodStart }),
      because: input.because,
    },
  });
  return { voided: voided!, issued };
}

/**
 * A reactivation started a new cycle (R4: anchored on the day it was paid), in its transaction
 * (the account locked): the open invoice's year no longer starts on a bill date of the account,
 * so a check recorded for it would leave the new cycle's card charges inside the year paid by
 * check (R14). The invoice is reissued for the year R14 gives a request made today, the first
 * bill date of the new cycle at least 30 days away, with one e-mail and a new number (decision
 * 054). An invoice already due is voided instead, as the due date's job would have (R14: not
 * paid by the due date, it is voided).
 */
export async function moveOpenInvoiceToCycle(
  tx: Transaction,
  deps: InvoiceDeps & Parameters<typeof voidOpenInvoice>[1],
  input: { user: UserRow; cycleAnchor: string; now: Date; actor: 'user' | 'billing-run' },
): Promise<void> {
  const { user, now } = input;
  const today = businessDate(now, deps.timeZone);
  const [open] = await tx
    .select()
    .from(invoices)
    .where(and(eq(invoices.userId, user.id), eq(invoices.status, 'open')))
    .for('update');
  if (!open) return;
  if (open.dueOn <= today) {
    await voidOpenInvoice(tx, deps, user, open, { by: 'due date', reason: null, now });
    return;
  }
  await reissueOpenInvoice(tx, deps, {
    user,
    now,
    because: NEW_BILLING_DAY,
    period: annualPeriodFor(input.cycleAnchor, today),
    actor: input.actor,
  });
}
