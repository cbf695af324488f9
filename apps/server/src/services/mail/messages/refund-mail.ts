import { formatCurrency } from '@dealerpass/domain/money';
import { paidWithText } from '@dealerpass/domain/billing/receipt-text';
import { paragraph, questionsLine, type IMailContent } from '@dealerpass/domain/mail/mail-content';
import { formatCalendarDate, parseIsoDate } from '@dealerpass/domain/time/calendar-date';

/**
 * A refund told to the dealer (R12, R4's trial refund). A staff refund's receipt is attached;
 * the trial refund's is in Payment History only (`receiptAttached: false`).
 */
export function refundMail(input: {
  company: { name: string; supportPhone: string };
  firstName: string;
  amountCents: number;
  payment: { activationDate: string; cardBrand: string | null; cardLast4: string | null };
  receiptAttached: boolean;
}): IMailContent {
  const { company, payment } = input;
  // The payment's date reads as every other date the dealer sees (000 §4).
  const paidOn = formatCalendarDate(parseIsoDate(payment.activationDate));
  const amount = formatCurrency(input.amountCents);
  return {
    company: company.name,
    subject: `${company.name} refund of ${amount}`,
    heading: 'Your refund',
    blocks: [
      paragraph(`Hello ${input.firstName},`),
      paragraph(
        `We refunded ${amount} of your payment of ${paidOn} to your ${paidWithText(payment.cardBrand, payment.cardLast4)}. Your card issuer may take a few business days to show it.`,
        input.receiptAttached
          ? 'The refund receipt is attached, and is with that payment under Billing Details, Payment History, in your account.'
          : 'The refund receipt is with that payment under Billing Details, Payment History, in your account.',
      ),
      questionsLine(company.supportPhone),
    ],
  };
}
