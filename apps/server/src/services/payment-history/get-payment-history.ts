import { desc } from 'drizzle-orm';
import { sortPaymentsNewestFirst } from '@dealerpass/domain/billing/payment-history';
import { centsToDollars } from '@dealerpass/domain/money';
import type { TPayment } from '@dealerpass/domain/schemas/payment-history';
import { cardBrandName } from '@dealerpass/domain/validation/card';
import type { Database } from '../../db/client.ts';
import { payments } from '../../db/schema.ts';
import { paymentsInYear } from './payments-in-year.ts';

/**
 * 'Visa ending in 1111': the receipt's own words ("Paid with … ending in …"). The gateway's brand
 * codes get their names; a brand stored already as a name is shown as it is.
 */
export function paidWith(cardBrand: string, cardLast4: string): string {
  return `${cardBrandName(cardBrand)} ending in ${cardLast4}`;
}

/**
 * `GET /api/users/paymentHistory?year=` (000 §3, §7): the year's successful payments of the
 * user, newest first, each with its stored receipt as base64. A year is a dozen or so receipts
 * of a few kilobytes, so the answer is built whole.
 */
export async function getPaymentHistory(
  db: Database,
  input: { userId: string; year: number },
): Promise<TPayment[]> {
  const rows = await db
    .select({
      activationDate: payments.activationDate,
      amountCents: payments.amountCents,
      cardBrand: payments.cardBrand,
      cardLast4: payments.cardLast4,
      receiptPdf: payments.receiptPdf,
    })
    .from(payments)
    .where(paymentsInYear(input.userId, input.year))
    // Same-day payments (a reactivation and a renewal) come newest first; the domain's sort is
    // stable and keeps that order.
    .orderBy(desc(payments.activationDate), desc(payments.createdAt), desc(payments.id));
  return sortPaymentsNewestFirst(
    rows.map((row) => ({
      activationDate: row.activationDate,
      paidWith: paidWith(row.cardBrand, row.cardLast4),
      amount: centsToDollars(row.amountCents),
      receiptBlob: row.receiptPdf.toString('base64'),
    })),
  );
}
