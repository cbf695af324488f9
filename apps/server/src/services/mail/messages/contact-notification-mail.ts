import { paragraph, type IMailContent } from '@dealerpass/domain/mail/mail-content';
import type { TContactUsRequest } from '@dealerpass/domain/schemas/contact';

/** A Contact Us message as support receives it (replies go to the visitor: Reply-To). */
export function contactNotificationMail(input: {
  companyName: string;
  reference: string;
  request: Pick<
    TContactUsRequest,
    | 'fullName'
    | 'email'
    | 'phoneNumber'
    | 'phoneCountry'
    | 'queryType'
    | 'auctionAccessNumber'
    | 'source'
    | 'comments'
  >;
}): IMailContent {
  const { request } = input;
  return {
    company: input.companyName,
    subject: `Contact Us: ${request.queryType} from ${request.fullName}`,
    heading: 'A Contact Us message',
    blocks: [
      paragraph(
        `A visitor sent a message through the Contact Us form (reference ${input.reference}).`,
      ),
      {
        kind: 'fields',
        rows: [
          ['Name', request.fullName],
          ['E-mail', request.email],
          ['Phone', `${request.phoneNumber} (${request.phoneCountry})`],
          ['Reason', request.queryType],
          ['AuctionACCESS number', request.auctionAccessNumber || 'not given'],
          ['Source', request.source],
        ],
      },
      { kind: 'verbatim', text: request.comments },
    ],
  };
}
