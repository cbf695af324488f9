import type { TContactUsRequest } from '@dealerpass/domain/schemas/contact';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { Database } from '../../db/client.ts';
import { contactRequests } from '../../db/schema.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { contactNotificationMail } from '../mail/messages/contact-notification-mail.ts';

/**
 * Stores a Contact Us message and the e-mail that tells support about it, in one transaction with
 * the captcha's redemption: either all three happen or none does.
 */
export async function submitContactRequest(
  deps: {
    db: Database;
    captcha: CaptchaVerifier;
    mailKind: 'smtp' | 'mailbox';
    supportAddress: string;
    companyName: string;
  },
  request: TContactUsRequest,
  remoteIp: string,
): Promise<{ id: string }> {
  return deps.db.transaction(async (tx) => {
    await redeemCaptcha(tx, deps.captcha, request.recaptcha, remoteIp);
    const [row] = await tx
      .insert(contactRequests)
      .values({
        fullName: request.fullName,
        email: request.email,
        phoneCountry: request.phoneCountry,
        phoneNumber: request.phoneNumber,
        queryType: request.queryType,
        auctionAccessNumber: request.auctionAccessNumber || null,
        comments: request.comments,
        source: request.source,
      })
      .returning({ id: contactRequests.id });
    if (!row) throw new Error('contact insert returned no row');
    await enqueueMail(
      tx,
      {
        to: deps.supportAddress,
        replyTo: request.email,
        content: contactNotificationMail({
          companyName: deps.companyName,
          reference: row.id,
          request,
        }),
      },
      deps.mailKind,
    );
    return { id: row.id };
  });
}
