import { eq } from 'drizzle-orm';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Database, Transaction } from '../../db/client.ts';
import type { payments } from '../../db/schema.ts';
import { billingPeriods, users } from '../../db/schema.ts';
import { renderRefundReceipt } from '../receipts/refund-receipt.ts';

type PaymentRow = typeof payments.$inferSelect;

/**
 * The refund R4's trial cancellation made of the sign-up payment: its amount (what the
 * cancellation claimed, after any staff refund before it), business date and receipt. The receipt
 * is the staff refund's (R12), rendered from the payment's stored facts with the refund's instant
 * as its issue date, so every rendering of it is the same document. Null for a payment the
 * trial cancellation did not refund (docs/decisions/035).
 */
export async function trialRefundReceipt(
  db: Database | Transaction,
  input: {
    payment: PaymentRow;
    company: { name: string; supportPhone: string };
    timeZone: string;
  },
): Promise<{ amountCents: number; refundDate: string; receiptPdf: Buffer } | null> {
  const { payment } = input;
  const refundedAt = payment.refundedAt;
  const amountCents = payment.refundClaimedCents;
  if (payment.status !== 'refunded' || !refundedAt || !amountCents) return null;
  const [user] = await db.select().from(users).where(eq(users.id, payment.userId));
  if (!user) return null;
  const [period] = payment.billingPeriodId
    ? await db.select().from(billingPeriods).where(eq(billingPeriods.id, payment.billingPeriodId))
    : [];
  const refundDate = toIsoDate(calendarDateIn(refundedAt, input.timeZone));
  const receiptPdf = renderRefundReceipt({
    company: input.company,
    user,
    payment,
    period: period ?? null,
    refund: {
      // The gateway knows this refund by the payment (`refund:<payment id>`), so does the receipt.
      id: payment.id,
      amountCents,
      earlierRefundsCents: payment.amountCents - amountCents,
    },
    refundDate,
    now: refundedAt,
  });
  return { amountCents, refundDate, receiptPdf };
}
