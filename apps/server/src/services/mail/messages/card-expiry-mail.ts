import { paidWithText } from '@dealerpass/domain/billing/receipt-text';
import { paragraph, phoneRun, type IMailContent } from '@dealerpass/domain/mail/mail-content';
import { formatCalendarDate, type ICalendarDate } from '@dealerpass/domain/time/calendar-date';

/** Where the dealer enters a new card (000 §4: Billing Details). */
export const BILLING_DETAILS_PATH = '/account/billing';

/**
 * The card on file expires before a bill that will charge it (issue 27 item 12, decision 044),
 * sent 30 and 7 days before its last valid day. It asks in the specification's words (001 §4,
 * the "not fully operational" message): "Please update your credit card information or call
 * customer support toll free at {phone}."
 */
export function cardExpiryMail(input: {
  company: { name: string; supportPhone: string };
  publicUrl: string;
  firstName: string;
  card: { brand: string | null; last4: string };
  lastValidDay: ICalendarDate;
}): IMailContent {
  const { company } = input;
  const card = paidWithText(input.card.brand, input.card.last4);
  const expires = formatCalendarDate(input.lastValidDay);
  return {
    company: company.name,
    subject: `${company.name}: your ${card} expires on ${expires}`,
    heading: 'Your card expires soon',
    blocks: [
      paragraph(`Hello ${input.firstName},`),
      paragraph(
        `The ${card} on file for your ${company.name} account expires on ${expires}. Your subscriptions renew every month, and a bill after that date cannot be charged to this card.`,
        [
          'Please update your credit card information or call customer support toll free at ',
          phoneRun(company.supportPhone),
          '.',
        ],
      ),
      {
        kind: 'action',
        intro: 'To enter a new card, open Billing Details in your account:',
        label: 'Open Billing Details',
        href: `${input.publicUrl}${BILLING_DETAILS_PATH}`,
      },
    ],
  };
}
