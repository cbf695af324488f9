import { paragraph, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/** Forgot password (001 §8, docs/decisions/009): the reset link, valid `ttlMinutes`. */
export function passwordResetMail(input: {
  companyName: string;
  email: string;
  link: string;
  ttlMinutes: number;
}): IMailContent {
  const company = input.companyName;
  return {
    company,
    subject: `Reset your ${company} ID password`,
    heading: `Reset your ${company} ID password`,
    blocks: [
      paragraph(`Someone asked to reset the password of the ${company} ID ${input.email}.`),
      {
        kind: 'action',
        intro: `To choose a new password, open this link within ${input.ttlMinutes} minutes:`,
        label: 'Choose a new password',
        href: input.link,
      },
      paragraph(
        'Only the most recent link works. If you did not ask for this, ignore this e-mail: your password stays as it is.',
      ),
    ],
  };
}
