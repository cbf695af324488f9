import { paragraph, questionsLine, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/**
 * The verification e-mail (DECISIONS R6): its link sets the first password and signs in. A
 * price change announced before the sign-up is told here too (R11 amended).
 */
export function verificationMail(input: {
  company: { name: string; supportPhone: string };
  firstName: string;
  link: string;
  priceNotice?: readonly string[] | undefined;
}): IMailContent {
  const company = input.company.name;
  return {
    company,
    subject: `Verify your e-mail and set your ${company} password`,
    heading: `Welcome to ${company}`,
    blocks: [
      paragraph(`Hello ${input.firstName},`),
      {
        kind: 'action',
        intro: `Welcome to ${company}. To verify your e-mail address and choose the password of your ${company} ID, open this link within 7 days:`,
        label: 'Verify and set your password',
        href: input.link,
      },
      // R6: setting the password signs the user in; there is no second sign-in to do.
      paragraph('Setting your password signs you in to your account.'),
      ...(input.priceNotice?.length ? [paragraph(...input.priceNotice)] : []),
      questionsLine(input.company.supportPhone),
    ],
  };
}
