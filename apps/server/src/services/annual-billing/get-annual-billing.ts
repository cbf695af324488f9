import { asc, eq } from 'drizzle-orm';
import { isInvoiceOverdue } from '@dealerpass/domain/billing/annual';
import type {
  IAnnualBillingState,
  IQueuedInvoice,
} from '@dealerpass/domain/schemas/annual-billing';
import type { Database } from '../../db/client.ts';
import { invoices, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';
import {
  annualPeriodOf,
  businessDate,
  invoiceViews,
  listAccountInvoices,
} from './invoice-records.ts';
import { annualOfferOf } from './request-annual-billing.ts';

/** `GET /api/users/annualBilling`: the offer or why not, the open invoice, the year paid, every invoice. */
export async function getAnnualBilling(
  db: Database,
  deps: BillingDeps,
  userId: string,
): Promise<IAnnualBillingState> {
  const now = deps.now();
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new AppError(ERROR_CODES.NOT_FOUND);
  const [subscription] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId));
  const [{ offer, ineligibleReason }, all] = await Promise.all([
    annualOfferOf(db, deps, user, subscription ?? null, now),
    listAccountInvoices(db, userId),
  ]);
  return {
    offer,
    ineligibleReason,
    openInvoice: all.find((invoice) => invoice.status === 'open') ?? null,
    annualPeriod: annualPeriodOf(subscription, businessDate(now, deps.timeZone)),
    invoices: all,
  };
}

/** The console's "Invoices due": every open invoice, overdue ones first, then by due date. */
export async function listOpenInvoices(
  db: Database,
  deps: Pick<BillingDeps, 'now' | 'timeZone'>,
): Promise<IQueuedInvoice[]> {
  const rows = await db
    .select({ invoice: invoices, dealershipName: users.dealership })
    .from(invoices)
    .innerJoin(users, eq(users.id, invoices.userId))
    .where(eq(invoices.status, 'open'))
    .orderBy(asc(invoices.dueOn), asc(invoices.number))
    .limit(1000);
  const today = businessDate(deps.now(), deps.timeZone);
  const views = await invoiceViews(
    db,
    rows.map((row) => row.invoice),
  );
  const queued = views.map((view, i) => ({
    ...view,
    userId: rows[i]!.invoice.userId,
    dealershipName: rows[i]!.dealershipName,
    overdue: isInvoiceOverdue(view.dueOn, today),
  }));
  // Overdue first; within each group by due date (the query's order, kept by a stable sort).
  return queued.sort((a, b) => Number(b.overdue) - Number(a.overdue));
}

/** An invoice's stored PDF, of this account only (a dealer's own, or any for staff). */
export async function getInvoicePdf(
  db: Database,
  userId: string,
  invoiceId: string,
): Promise<{ number: string; pdf: Buffer }> {
  const [row] = await db
    .select({ number: invoices.number, pdf: invoices.pdf, userId: invoices.userId })
    .from(invoices)
    .where(eq(invoices.id, invoiceId));
  if (!row || row.userId !== userId) throw new AppError(ERROR_CODES.NOT_FOUND);
  return { number: row.number, pdf: row.pdf };
}
