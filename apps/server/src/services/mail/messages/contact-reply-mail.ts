import { paragraph, questionsLine, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/** A staff member's answer to a Contact Us message (R12), with the message it answers. */
export function contactReplyMail(input: {
  company: { name: string; supportPhone: string };
  fullName: string;
  body: string;
  comments: string;
}): IMailContent {
  return {
    company: input.company.name,
    subject: `${input.company.name}: our answer to your message`,
    heading: 'Our answer to your message',
    blocks: [
      paragraph(`Hello ${input.fullName},`),
      { kind: 'verbatim', text: input.body },
      questionsLine(input.company.supportPhone),
      { kind: 'quote', intro: 'You wrote:', text: input.comments },
    ],
  };
}
