import { eq } from 'drizzle-orm';
import type { TForgotPasswordRequest } from '@dealerpass/domain/schemas/identity';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { Database } from '../../db/client.ts';
import { identities } from '../../db/schema.ts';
import { redeemCaptcha } from '../captcha/redeem-captcha.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { passwordResetMail } from '../mail/messages/password-reset-mail.ts';
import { normalizeIdentityEmail } from './create-identity.ts';
import { issueIdentityToken, RESET_PASSWORD_TTL_MINUTES } from './identity-tokens.ts';

/** Where the reset link of the e-mail leads (the web app's page). */
export const RESET_PASSWORD_PATH = '/identity/reset-password';

/**
 * Forgot password (001 §8, docs/decisions/009): spends the captcha, and for a known DealerPass ID
 * writes a reset link (valid an hour, replacing any earlier one) into the outbox, in one
 * transaction. An unknown e-mail answers `found: false` after the captcha is spent, so each guess
 * costs a solved captcha.
 */
export async function requestPasswordReset(
  deps: {
    db: Database;
    captcha: CaptchaVerifier;
    mailKind: 'smtp' | 'mailbox';
    publicUrl: string;
    companyName: string;
  },
  request: TForgotPasswordRequest,
  remoteIp: string,
  now: Date,
): Promise<{ found: boolean }> {
  return deps.db.transaction(async (tx) => {
    await redeemCaptcha(tx, deps.captcha, request.recaptcha, remoteIp);
    const [identity] = await tx
      .select({ id: identities.id, email: identities.email })
      .from(identities)
      .where(eq(identities.email, normalizeIdentityEmail(request.email)))
      .limit(1);
    if (!identity) return { found: false };

    const token = await issueIdentityToken(tx, {
      identityId: identity.id,
      purpose: 'reset-password',
      now,
      ttlMinutes: RESET_PASSWORD_TTL_MINUTES,
    });
    const link = `${deps.publicUrl}${RESET_PASSWORD_PATH}?token=${token}`;
    await enqueueMail(
      tx,
      {
        to: identity.email,
        content: passwordResetMail({
          companyName: deps.companyName,
          email: identity.email,
          link,
          ttlMinutes: RESET_PASSWORD_TTL_MINUTES,
        }),
      },
      deps.mailKind,
    );
    return { found: true };
  });
}
