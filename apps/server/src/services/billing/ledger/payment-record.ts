import type { IQuote } from '@dealerpass/domain/prices';
import { billingPeriodShown, cardBrandName } from '@dealerpass/domain/billing/receipt-text';
import type { billingPeriods, payments, users } from '../../../db/schema.ts';
import type { MailToSend } from '../../mail/enqueue-mail.ts';
import { receiptMail } from '../../mail/messages/receipt-mail.ts';
import { renderReceipt } from '../../receipts/render-receipt.ts';
import { receiptColumns } from '../../receipts/stored-receipt.ts';
import type { BillingDeps } from './billing-deps.ts';

/**
 * One successful charge as it is stored: the payment row with its receipt (rendered here, once,
 * stored as decision 066 says, with its CRC-32) and the receipt's e-mail. Shared by the billing run and the demo seed's
 * history.
 */
export function paymentRecord(input: {
  company: BillingDeps['company'];
  user: typeof users.$inferSelect;
  period: Pick<
    typeof billingPeriods.$inferSelect,
    'id' | 'periodStart' | 'periodEnd' | 'amountCents' | 'quote'
  >;
  card: { brand: string | null; last4: string | null };
  transactionId: string;
  /** The payment's business date (YYYY-MM-DD). */
  activationDate: string;
  now: Date;
}): { row: typeof payments.$inferInsert; mail: MailToSend } {
  const { company, user, period, card, activationDate } = input;
  const priced = period.quote as IQuote;
  const paymentId = crypto.randomUUID();
  // One period and one card, in the PDF and in its e-mail alike.
  const shownPeriod = billingPeriodShown(period.periodStart, period.periodEnd);
  const receipt = renderReceipt({
    company,
    account: {
      dealerpassUserId: user.dealerpassUserId,
      name: `${user.firstName} ${user.lastName}`,
      email: user.email,
    },
    dealership: {
      name: user.dealership,
      address: {
        line1: user.address1,
        line2: user.address2,
        city: user.city,
        state: user.state,
        postalCode: user.zip,
        country: user.country,
      },
    },
    period: shownPeriod,
    lines: priced.lines,
    platformFeeCents: priced.platformFeeCents,
    totalCents: priced.totalCents,
    card: { brand: cardBrandName(card.brand), lastFour: card.last4 ?? '----' },
    paymentDate: activationDate,
    paymentId,
    issuedAt: input.now,
  });
  return {
    row: {
      id: paymentId,
      userId: user.id,
      billingPeriodId: period.id,
      amountCents: period.amountCents,
      gatewayTransactionId: input.transactionId,
      cardBrand: card.brand ?? 'card',
      cardLast4: card.last4 ?? '',
      activationDate,
      ...receiptColumns(receipt),
      // The application's clock, as every business time (the trial is counted from it, R4).
      createdAt: input.now,
    },
    mail: {
      to: user.email,
      content: receiptMail({
        company,
        firstName: user.firstName,
        amountCents: period.amountCents,
        card,
        period: shownPeriod,
        paymentId,
        activationDate,
      }),
      receiptPaymentId: paymentId,
    },
  };
}
