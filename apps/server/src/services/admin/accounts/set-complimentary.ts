import { eq } from 'drizzle-orm';
import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffActionResult } from '@dealerpass/domain/admin/account-actions';
import type { Database } from '../../../db/client.ts';
import { accountEvents, users } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { recordMrrState } from '../../overview/record-mrr-state.ts';
import { staffEventDetails, takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * Complimentary on or off (R12 billing; R4: a complimentary account hides Current Balance). The
 * billing run waives the periods of an active complimentary account and charges nothing for them
 * (run/claim-due-accounts.ts), so only an active account is made complimentary: any other status
 * has a charge in retries, a cancellation or a reactivation of its own that the flag would not
 * stop. Off charges the account again from its next bill date. Setting what is already set is
 * 409 ACTION_NOT_ALLOWED.
 */
export async function setComplimentary(
  db: Database,
  input: Omit<StaffActionInput, 'action'>,
  on: boolean,
): Promise<TStaffActionResult> {
  const action = on ? 'complimentaryOn' : 'complimentaryOff';
  return takeStaffAction(db, { ...input, action }, async (tx, user) => {
    if (user.complimentary === on || (on && user.accountStatus !== ACCOUNT_STATUS.active)) {
      throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    }
    await tx
      .update(users)
      .set({ complimentary: on, updatedAt: input.now })
      .where(eq(users.id, user.id));
    await tx.insert(accountEvents).values({
      userId: user.id,
      event: on ? 'complimentary on' : 'complimentary off',
      actor: 'staff',
      at: input.now,
      details: { ...staffEventDetails(input.actor), reason: input.reason },
    });
    await recordMrrState(tx, { userId: user.id, at: input.now, event: null });
  });
}
