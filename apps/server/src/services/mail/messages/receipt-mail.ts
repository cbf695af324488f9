import { formatCurrency } from '@dealerpass/domain/money';
import { billingPeriodText, paidWithText } from '@dealerpass/domain/billing/receipt-text';
import { paragraph, questionsLine, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/** R4: the e-mailed copy of a payment's receipt (the PDF goes with it, `receiptPaymentId`). */
export function receiptMail(input: {
  company: { name: string; supportPhone: string };
  firstName: string;
  amountCents: number;
  card: { brand: string | null; last4: string | null };
  period: { from: string; to: string };
  paymentId: string;
  /** The payment's business date (YYYY-MM-DD). */
  activationDate: string;
}): IMailContent {
  const { company, card } = input;
  return {
    company: company.name,
    subject: `${company.name} receipt for ${input.activationDate}`,
    heading: 'Your receipt',
    blocks: [
      paragraph(`Hello ${input.firstName},`),
      paragraph(
        `We charged ${formatCurrency(input.amountCents)} to your ${paidWithText(card.brand, card.last4)} for ${billingPeriodText(input.period)}.`,
        `Your receipt (payment ${input.paymentId}) is attached, and is under Billing Details, Payment History, in your account.`,
      ),
      questionsLine(company.supportPhone),
    ],
  };
}
