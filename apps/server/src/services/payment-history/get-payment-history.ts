import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import { sortPaymentsNewestFirst } from '@dealerpass/domain/billing/payment-history';
// 'Visa ending in 1111', 'Check 1234': the receipt's own words, from the one brand-name rule.
import { paymentPaidWith } from '@dealerpass/domain/billing/receipt-text';
import { centsToDollars } from '@dealerpass/domain/money';
import type { TPayment, TPaymentRefund } from '@dealerpass/domain/schemas/payment-history';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Database } from '../../db/client.ts';
import { payments, refunds } from '../../db/schema.ts';
import { readStoredReceipts } from '../receipts/stored-receipt.ts';
import { paymentsInYear } from './payments-in-year.ts';
import { trialRefundReceipt } from './trial-refund-receipt.ts';

/**
 * `GET /api/users/paymentHistory?year=` (000 §3, §7): the year's successful payments of the
 * user, newest first, each with its stored receipt as base64. A year is a dozen or so receipts
 * of a few kilobytes, so the answer is built whole. A payment staff refunded (part of) shows the
 * refunded total and each refund with its receipt (R12), dated in the business time zone; so
 * does the sign-up payment R4's trial cancellation refunded.
 */
export async function getPaymentHistory(
  db: Database,
  input: {
    userId: string;
    year: number;
    timeZone: string;
    company: { name: string; supportPhone: string };
  },
): Promise<TPayment[]> {
  const rows = await db
    .select()
    .from(payments)
    .where(paymentsInYear(input.userId, input.year))
    // Same-day payments (a reactivation and a renewal) come newest first; the domain's sort is
    // stable and keeps that order.
    .orderBy(desc(payments.activationDate), desc(payments.createdAt), desc(payments.id));
  const receipts = await readStoredReceipts(
    db,
    rows.map((row) => row.receiptPdf),
  );
  const refundsOf = await succeededRefunds(
    db,
    rows.map((row) => row.id),
    input.timeZone,
  );
  for (const row of rows) {
    const trial = await trialRefundReceipt(db, {
      payment: row,
      company: input.company,
      timeZone: input.timeZone,
    });
    if (!trial) continue;
    const entry = refundsOf.get(row.id) ?? { cents: 0, list: [] };
    entry.cents += trial.amountCents;
    entry.list.push({
      refundDate: trial.refundDate,
      amount: centsToDollars(trial.amountCents),
      receiptBlob: trial.receiptPdf.toString('base64'),
    });
    refundsOf.set(row.id, entry);
  }
  return sortPaymentsNewestFirst(
    rows.map((row, index) => {
      const given = refundsOf.get(row.id);
      return {
        activationDate: row.activationDate,
        paidWith: paymentPaidWith(row),
        amount: centsToDollars(row.amountCents),
        receiptBlob: receipts[index]!.toString('base64'),
        ...(given
          ? {
              refundedAmount: centsToDollars(given.cents),
              refunds: given.list,
            }
          : {}),
      };
    }),
  );
}

async function succeededRefunds(
  db: Database,
  paymentIds: string[],
  timeZone: string,
): Promise<Map<string, { cents: number; list: TPaymentRefund[] }>> {
  const byPayment = new Map<string, { cents: number; list: TPaymentRefund[] }>();
  if (paymentIds.length === 0) return byPayment;
  const rows = await db
    .select({
      paymentId: refunds.paymentId,
      amountCents: refunds.amountCents,
      settledAt: refunds.settledAt,
      receiptPdf: refunds.receiptPdf,
    })
    .from(refunds)
    .where(and(inArray(refunds.paymentId, paymentIds), eq(refunds.status, 'succeeded')))
    .orderBy(asc(refunds.settledAt), asc(refunds.id));
  for (const row of rows) {
    const entry = byPayment.get(row.paymentId) ?? { cents: 0, list: [] };
    entry.cents += row.amountCents;
    entry.list.push({
      refundDate: toIsoDate(calendarDateIn(row.settledAt ?? new Date(0), timeZone)),
      amount: centsToDollars(row.amountCents),
      receiptBlob: row.receiptPdf?.toString('base64') ?? '',
    });
    byPayment.set(row.paymentId, entry);
  }
  return byPayment;
}
