import { sameOriginPath } from '@dealerpass/domain/validation/same-origin-path';
import type { Transaction } from '../../db/client.ts';
import { issueIdentityToken } from '../identity/identity-tokens.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { verificationMail } from '../mail/messages/verification-mail.ts';
import type { SignupDeps } from './signup-deps.ts';

/** The verification link's lifetime (the user sets the first password with it). */
export const VERIFICATION_LINK_TTL_MINUTES = 7 * 24 * 60;
/** The web app's page behind the verification link. */
export const SET_PASSWORD_PATH = '/identity/set-password';
/** Where the user goes after setting the password when forwardTo names no path of ours. */
export const DEFAULT_FORWARD_PATH = '/login?returnTo=%2Faccount';

/** The verification e-mail (DECISIONS R6): its link sets the password, then signs in at forwardTo. */
export async function sendVerificationMail(
  tx: Transaction,
  deps: SignupDeps,
  input: {
    identityId: string;
    email: string;
    firstName: string;
    forwardTo: string;
    now: Date;
    /** R11 amended: the notice of a price change scheduled before the sign-up, if any. */
    priceNotice?: readonly string[];
  },
): Promise<void> {
  const token = await issueIdentityToken(tx, {
    identityId: input.identityId,
    purpose: 'set-password',
    now: input.now,
    ttlMinutes: VERIFICATION_LINK_TTL_MINUTES,
  });
  const forwardPath = forwardPathOf(input.forwardTo, deps.publicUrl);
  const link = `${deps.publicUrl}${SET_PASSWORD_PATH}?token=${token}&forwardTo=${encodeURIComponent(forwardPath)}`;
  await enqueueMail(
    tx,
    {
      to: input.email,
      content: verificationMail({
        company: deps.company,
        firstName: input.firstName,
        link,
        priceNotice: input.priceNotice,
      }),
    },
    deps.mailKind,
  );
}

/** forwardTo is an origin plus a login path (001 §3); only a path of our own origin is kept. */
export function forwardPathOf(forwardTo: string, publicUrl: string): string {
  return sameOriginPath(forwardTo, new URL(publicUrl).origin) ?? DEFAULT_FORWARD_PATH;
}
