import { paragraph, questionsLine, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/** R4: a renewal was declined; the account is validating payment until a retry succeeds. */
export function renewalDeclinedMail(input: {
  company: { name: string; supportPhone: string };
  firstName: string;
  /** The gateway's reason, in words. */
  reason: string;
  retryDays: number;
}): IMailContent {
  const { company, retryDays } = input;
  return {
    company: company.name,
    subject: `${company.name}: we could not charge your card`,
    heading: 'We could not charge your card',
    blocks: [
      paragraph(`Hello ${input.firstName},`),
      paragraph(
        `Your ${company.name} renewal could not be charged (${input.reason}). We will try again in ${retryDays} day${retryDays === 1 ? '' : 's'}.`,
        'To avoid an interruption, update your card under Billing Details in your account; we retry at once when you do.',
      ),
      questionsLine(company.supportPhone),
    ],
  };
}
