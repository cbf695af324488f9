import { formatCurrency } from '@dealerpass/domain/money';
import { paragraph, questionsLine, type IMailContent } from '@dealerpass/domain/mail/mail-content';

/** R4: the last retry failed; the account is inactive and the unpaid amount stays owed. */
export function accountInactiveMail(input: {
  company: { name: string; supportPhone: string };
  firstName: string;
  owedCents: number;
}): IMailContent {
  const { company } = input;
  return {
    company: company.name,
    subject: `${company.name}: your account is inactive`,
    heading: 'Your account is inactive',
    blocks: [
      paragraph(`Hello ${input.firstName},`),
      paragraph(
        `We could not charge your card after several tries, so your ${company.name} account is now inactive. ${formatCurrency(input.owedCents)} remains owed.`,
        'You can reactivate it any time under Billing Details with a new card.',
      ),
      questionsLine(company.supportPhone),
    ],
  };
}
