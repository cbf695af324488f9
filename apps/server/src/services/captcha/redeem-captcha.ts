import { lt } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { CaptchaVerifier } from '../../adapters/captcha/captcha-verifier.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { captchaRedemptions } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';

/**
 * Verifies a captcha value and spends it inside the caller's transaction: the same solved captcha is
 * refused the second time, and if the transaction rolls back the captcha stays unspent.
 */
export async function redeemCaptcha(
  tx: Transaction,
  verifier: CaptchaVerifier,
  token: string,
  remoteIp: string,
): Promise<void> {
  const verdict = await verifier.verify(token, remoteIp);
  if (!verdict.ok) throw captchaError();
  const inserted = await tx
    .insert(captchaRedemptions)
    .values({ signature: verdict.replayKey, expiresAt: verdict.expiresAt })
    .onConflictDoNothing()
    .returning({ signature: captchaRedemptions.signature });
  if (inserted.length === 0) throw captchaError();
}

function captchaError(): AppError {
  return new AppError(ERROR_CODES.CAPTCHA_FAILED, {
    errors: [{ source: 'recaptcha', message: '' }],
  });
}

/** Replay records are needed only until their captcha would have expired anyway. */
export async function purgeExpiredCaptchaRedemptions(db: Database, now: Date): Promise<void> {
  await db.delete(captchaRedemptions).where(lt(captchaRedemptions.expiresAt, now));
}
