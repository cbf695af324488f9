import type { IQuote } from '@dealerpass/domain/prices';
import { billingPeriodShown, cardBrandName } from '@dealerpass/domain/billing/receipt-text';
import type { billingPeriods, payments, users } from '../../db/schema.ts';
import type { MailToSend } from '../mail/enqueue-mail.ts';
import { refundMail as refundMessage } from '../mail/messages/refund-mail.ts';
import { receiptParties, renderReceiptPdf, type IReceiptLine } from './render-receipt.ts';

type RefundReceiptInput = {
  company: { name: string; supportPhone: string };
  user: typeof users.$inferSelect;
  payment: typeof payments.$inferSelect;
  period: Pick<typeof billingPeriods.$inferSelect, 'periodStart' | 'periodEnd' | 'quote'> | null;
  refund: { id: string; amountCents: number; earlierRefundsCents: number };
  /** The refund's business date (YYYY-MM-DD). */
  refundDate: string;
  now: Date;
};

/**
 * A staff refund's receipt (R12: the dealer receives a refund receipt): the payment's own
 * receipt page, titled as a refund, with the amount given back. It is rendered before the
 * gateway is asked (a receipt that cannot be made stops the refund before any money moves),
 * stored on the refund row and offered with the payment in the dealer's payment history.
 */
export function renderRefundReceipt(input: RefundReceiptInput): Buffer {
  const { company, user, payment, refund } = input;
  const charged = chargedLines(payment.amountCents, input.period?.quote);
  const period = input.period
    ? billingPeriodShown(input.period.periodStart, input.period.periodEnd)
    : { from: payment.activationDate, to: payment.activationDate };
  return renderReceiptPdf({
    company,
    ...receiptParties(user),
    period,
    lines: charged.lines,
    platformFeeCents: charged.platformFeeCents,
    totalCents: payment.amountCents,
    card: { brand: cardBrandName(payment.cardBrand), lastFour: payment.cardLast4 },
    paymentDate: payment.activationDate,
    paymentId: payment.id,
    issuedAt: input.now,
    refund: {
      refundId: refund.id,
      refundDate: input.refundDate,
      amountCents: refund.amountCents,
      earlierRefundsCents: refund.earlierRefundsCents,
    },
  });
}

/**
 * The refund's e-mail to the dealer: a staff refund's stored receipt (its `refunds` row) is
 * attached; R4's trial refund has no row of its own (`receiptAttached: false`), so the mail says
 * where its receipt is.
 */
export function refundMail(
  input: Pick<RefundReceiptInput, 'company' | 'user' | 'payment' | 'refund'> & {
    receiptAttached?: boolean;
  },
): MailToSend {
  const { company, user, payment, refund } = input;
  const attached = input.receiptAttached ?? true;
  return {
    to: user.email,
    content: refundMessage({
      company,
      firstName: user.firstName,
      amountCents: refund.amountCents,
      payment,
      receiptAttached: attached,
    }),
    ...(attached ? { receiptRefundId: refund.id } : {}),
  };
}

/**
 * The lines the payment charged, from its period's quote (the same the payment's receipt shows);
 * one line for the whole amount when the quote does not add up to it (it always should).
 */
function chargedLines(
  amountCents: number,
  quote: unknown,
): { lines: IReceiptLine[]; platformFeeCents: number } {
  const priced = quote as Partial<IQuote> | null;
  const lines = priced?.lines ?? [];
  const fee = priced?.platformFeeCents ?? 0;
  const sum = lines.reduce((total, line) => total + line.cents, fee);
  if (lines.length > 0 && sum === amountCents) return { lines: [...lines], platformFeeCents: fee };
  return {
    lines: [{ code: 'PAYMENT', name: 'DealerPass subscription', cents: amountCents, free: false }],
    platformFeeCents: 0,
  };
}
