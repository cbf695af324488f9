/**
 * The annual-billing jobs (R14), run by the billing run before it claims any account, so a due
 * invoice is voided and a year paid by check is passed over before a card could be charged:
 * - an open invoice whose due date has come is voided, with its e-mail;
 * - 45 days before a year paid by check ends, the next year's invoice is issued at the prices in
 *   force at its start;
 * - (inside the claim, `passPaidAnnualPeriods`) an account whose bill date starts a year paid by
 *   check moves past the year with no charge.
 * The period end unpaid needs no job of its own: the account's next bill date is the year's end,
 * where the run bills it monthly by card again (R4 on a failure; no card, validating payment).
 */
import { and, asc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import {
  ANNUAL_RENEWAL_INVOICE_DAYS,
  nextAnnualPeriod,
  selectionAtStart,
} from '@dealerpass/domain/billing/annual';
import { addDays, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { anyOf, unnestRows } from '../../db/bulk.ts';
import type { Transaction } from '../../db/client.ts';
import { accountEvents, billingPeriods, invoices, subscriptions, users } from '../../db/schema.ts';
import { advancePeriods } from '../billing/ledger/advance-periods.ts';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import { lockAccount } from '../billing/ledger/lock-account.ts';
import { issueInvoice } from './issue-invoice.ts';
import { businessDate } from './invoice-records.ts';
import { voidOpenInvoice } from './void-invoice.ts';

const dayAfter = (date: string) => {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new Error(`not a date: ${date}`);
  return toIsoDate(addDays(parsed, 1));
};

export interface AnnualJobsResult {
  voided: number;
  issued: number;
}

/** Both jobs, in the order the run needs them. */
export async function runAnnualBillingJobs(deps: BillingDeps): Promise<AnnualJobsResult> {
  const voided = await voidDueInvoices(deps);
  const issued = await issueRenewalInvoices(deps);
  return { voided, issued };
}

/** R14: an invoice not paid by its due date is voided then (e-mail); monthly billing goes on. */
export async function voidDueInvoices(deps: BillingDeps): Promise<number> {
  const now = deps.now();
  const today = businessDate(now, deps.timeZone);
  const due = await deps.db
    .select({ id: invoices.id, userId: invoices.userId })
    .from(invoices)
    .where(and(eq(invoices.status, 'open'), lte(invoices.dueOn, today)))
    .orderBy(asc(invoices.dueOn));
  let voided = 0;
  for (const { id, userId } of due) {
    const done = await deps.db.transaction(async (tx) => {
      const user = await lockAccount(tx, userId);
      if (!user) return false;
      const [invoice] = await tx.select().from(invoices).where(eq(invoices.id, id)).for('update');
      // Paid or voided meanwhile (a check recorded, another instance's run): nothing to do.
      if (invoice?.status !== 'open') return false;
      await voidOpenInvoice(tx, deps, user, invoice, { by: 'due date', reason: null, now });
      return true;
    });
    if (done) voided += 1;
  }
  return voided;
}

/**
 * R14 renewal: 45 days before a year paid by check ends, the next year's invoice, due at its
 * start, at the prices in force then. Only for an account that is billed on then (active, not
 * complimentary; a pending cancellation ends with the year) and has no invoice for it yet.
 */
export async function issueRenewalInvoices(deps: BillingDeps): Promise<number> {
  const now = deps.now();
  const today = businessDate(now, deps.timeZone);
  // The year's end (its last paid day) within 45 days from today, still ahead.
  const latestEnd = toIsoDate(addDays(parseIsoDate(today)!, ANNUAL_RENEWAL_INVOICE_DAYS - 1));
  const candidates = await deps.db
    .select({ userId: subscriptions.userId })
    .from(subscriptions)
    .innerJoin(users, eq(users.id, subscriptions.userId))
    .where(
      and(
        isNotNull(subscriptions.annualPeriodEnd),
        lte(subscriptions.annualPeriodEnd, latestEnd),
        sql`${subscriptions.annualPeriodEnd} >= ${today}`,
        eq(users.accountStatus, ACCOUNT_STATUS.active),
        eq(users.complimentary, false),
      ),
    );
  let issued = 0;
  for (const { userId } of candidates) {
    const done = await deps.db.transaction(async (tx) => {
      const user = await lockAccount(tx, userId);
      if (!user || user.accountStatus !== ACCOUNT_STATUS.active || user.complimentary) return false;
      const [subscription] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, userId))
        .for('update');
      if (!subscription?.annualPeriodEnd) return false;
      const nextStart = dayAfter(subscription.annualPeriodEnd);
      const existing = await tx
        .select({ id: invoices.id, status: invoices.status, periodStart: invoices.periodStart })
        .from(invoices)
        .where(eq(invoices.userId, userId));
      if (existing.some((row) => row.status === 'open' || row.periodStart === nextStart)) {
        return false;
      }
      const invoice = await issueInvoice(tx, deps, {
        user,
        // The selection in force at the next year's start: removals pending until then are out.
        codes: selectionAtStart(subscription, nextStart),
        period: nextAnnualPeriod(subscription.cycleAnchor, nextStart),
        kind: 'renewal',
        now,
      });
      await tx.insert(accountEvents).values({
        userId,
        event: 'annual invoice issued',
        actor: 'billing-run',
        at: now,
        details: { invoiceId: invoice.id, number: invoice.number, totalCents: invoice.totalCents },
      });
      return true;
    });
    if (done) issued += 1;
  }
  return issued;
}

/**
 * Inside the run's claim (its accounts locked): the accounts whose due bill date starts a year
 * paid by check move past the year with no charge, whatever their status says should happen at a
 * bill date (a cancellation waits for the year's end, R14). Returns the accounts moved.
 */
export async function passPaidAnnualPeriods(
  tx: Transaction,
  due: readonly { userId: string; periodStart: string }[],
  now: Date,
): Promise<Set<string>> {
  if (due.length === 0) return new Set();
  const keys = unnestRows(due, {
    user_id: ['uuid', (account) => account.userId],
    period_start: ['date', (account) => account.periodStart],
  });
  const paid = (await tx.execute(sql`
    select user_id as "userId", period_start::text as "periodStart", period_end::text as "periodEnd"
    from ${billingPeriods}
    where ${anyOf(
      billingPeriods.userId,
      due.map((account) => account.userId),
      'uuid',
    )} and kind = 'annual' and status = 'paid'
      and (user_id, period_start) in (${keys.select})`)) as unknown as {
    rows: { userId: string; periodStart: string; periodEnd: string }[];
  };
  await advancePeriods(tx, paid.rows, now);
  return new Set(paid.rows.map((row) => row.userId));
}
