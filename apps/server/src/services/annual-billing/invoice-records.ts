/**
 * Invoices and checks as the dealer and the console see them (the contract's Invoice view,
 * docs/annual-billing-api.md), and the reads every annual-billing service shares.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import type { IAnnualPeriod, IInvoice } from '@dealerpass/domain/schemas/annual-billing';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { DEFAULT_INVOICING, type InvoicingConfig } from '../../config.ts';
import type { Database, Transaction } from '../../db/client.ts';
import type { subscriptions } from '../../db/schema.ts';
import { checks, invoices } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { BillingDeps } from '../billing/ledger/billing-deps.ts';

export type InvoiceRow = typeof invoices.$inferSelect;
export type CheckRow = typeof checks.$inferSelect;

export const invoicingOf = (deps: Pick<BillingDeps, 'invoicing'>): InvoicingConfig =>
  deps.invoicing ?? DEFAULT_INVOICING;

/** Today's business date, 'YYYY-MM-DD' (R4's time zone). */
export const businessDate = (now: Date, timeZone: string): string =>
  toIsoDate(calendarDateIn(now, timeZone));

/** The Invoice view of a row and its checks (the standing one, else the latest returned one). */
export function invoiceView(row: InvoiceRow, rowChecks: readonly CheckRow[] = []): IInvoice {
  const check =
    rowChecks.find((candidate) => candidate.returnedOn === null) ??
    [...rowChecks].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())[0];
  return {
    id: row.id,
    number: row.number,
    status: row.status,
    issuedOn: row.issuedOn,
    dueOn: row.dueOn,
    periodStart: row.periodStart,
    periodEnd: row.periodEnd,
    lines: row.lines as IInvoice['lines'],
    discountCents: row.discountCents,
    totalCents: row.totalCents,
    ...(row.voidedOn ? { voidedOn: row.voidedOn } : {}),
    ...(row.paidOn ? { paidOn: row.paidOn } : {}),
    ...(check
      ? {
          check: {
            number: check.number,
            receivedOn: check.receivedOn,
            amountCents: check.amountCents,
            ...(check.returnedOn ? { returnedOn: check.returnedOn } : {}),
          },
        }
      : {}),
  };
}

/** Invoice views of rows, their checks read in one statement. */
export async function invoiceViews(
  db: Database | Transaction,
  rows: readonly InvoiceRow[],
): Promise<IInvoice[]> {
  if (rows.length === 0) return [];
  const found = await db
    .select()
    .from(checks)
    .where(
      inArray(
        checks.invoiceId,
        rows.map((row) => row.id),
      ),
    );
  return rows.map((row) =>
    invoiceView(
      row,
      found.filter((check) => check.invoiceId === row.id),
    ),
  );
}

/** An account's invoices, newest first. */
export async function listAccountInvoices(
  db: Database | Transaction,
  userId: string,
): Promise<IInvoice[]> {
  const rows = await db
    .select()
    .from(invoices)
    .where(eq(invoices.userId, userId))
    .orderBy(desc(invoices.issuedOn), desc(invoices.number));
  return invoiceViews(db, rows);
}

/** One invoice of one account, or 404 (a dealer never reaches another account's invoice). */
export async function findAccountInvoice(
  db: Database | Transaction,
  userId: string,
  invoiceId: string,
  lock = false,
): Promise<InvoiceRow> {
  const query = db
    .select()
    .from(invoices)
    .where(and(eq(invoices.id, invoiceId), eq(invoices.userId, userId)));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError(ERROR_CODES.NOT_FOUND);
  return row;
}

export async function invoiceViewById(
  db: Database | Transaction,
  invoiceId: string,
): Promise<IInvoice> {
  const rows = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  const [view] = await invoiceViews(db, rows);
  if (!view) throw new AppError(ERROR_CODES.NOT_FOUND);
  return view;
}

/** The days paid by check still ahead or running on `today`; null when none. */
export function annualPeriodOf(
  subscription:
    | Pick<typeof subscriptions.$inferSelect, 'annualPeriodStart' | 'annualPeriodEnd'>
    | null
    | undefined,
  today: string,
): IAnnualPeriod | null {
  if (!subscription?.annualPeriodStart || !subscription.annualPeriodEnd) return null;
  if (subscription.annualPeriodEnd < today) return null;
  return { start: subscription.annualPeriodStart, end: subscription.annualPeriodEnd };
}
