import { paragraph, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/**
 * The annual-billing messages (R14: an invoice issued, resent or voided, a check's receipt, a
 * returned check), written as plain lines: each run of lines between blank lines is a paragraph
 * of the HTML part, and the plain part reads as the lines were written.
 */
export function annualBillingMail(input: {
  company: string;
  subject: string;
  text: string;
}): IMailContent {
  const paragraphs = input.text
    .split(/\n\s*\n/)
    .map((block) => block.split('\n').filter((line) => line.trim() !== ''))
    .filter((lines) => lines.length > 0);
  return {
    company: input.company,
    subject: input.subject,
    heading: input.subject.replace(new RegExp(`^${escapeRegExp(input.company)}:?\\s*`), ''),
    blocks: paragraphs.map((lines) => paragraph(...lines.map((line) => line.trim()))),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
