import { eq } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffActionResult } from '@dealerpass/domain/admin/account-actions';
import { isVerificationPending } from '@dealerpass/domain/admin/console-views';
import { identities } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { sendVerificationMail } from '../../signup/send-verification-mail.ts';
import type { SignupDeps } from '../../signup/signup-deps.ts';
import { takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * Sends the sign-up's verification e-mail again (R12 support): a new set-password link, the
 * earlier one withdrawn. Only for an account whose DealerPass ID has no password yet or an
 * unverified e-mail; anything else has nothing to verify (409 ACTION_NOT_ALLOWED). The link
 * lands on the account after the password is set, as an expired link's new copy does.
 */
export async function resendVerification(
  deps: SignupDeps,
  input: Omit<StaffActionInput, 'action'>,
): Promise<TStaffActionResult> {
  return takeStaffAction(deps.db, { ...input, action: 'resendVerification' }, async (tx, user) => {
    const [identity] = user.karId
      ? await tx.select().from(identities).where(eq(identities.id, user.karId))
      : [];
    // A migrated account without a DealerPass ID links one itself (R6); a verified ID with a
    // password has nothing left to verify.
    if (!identity) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    const state = {
      passwordSet: identity.passwordHash !== null,
      emailVerified: identity.emailVerified,
    };
    if (!isVerificationPending(state)) throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    await sendVerificationMail(tx, deps, {
      identityId: identity.id,
      email: identity.email,
      firstName: user.firstName,
      forwardTo: '',
      now: input.now,
    });
    return { before: state, after: { ...state, verificationSentTo: identity.email } };
  });
}
