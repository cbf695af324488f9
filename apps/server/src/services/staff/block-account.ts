import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffActionResult } from '@dealerpass/domain/staff/account-actions';
import type { Database } from '../../db/client.ts';
import { AppError } from '../../errors/app-error.ts';
import {
  AccountTransitionRefused,
  changeAccountStatus,
} from '../billing/ledger/change-account-status.ts';
import { staffEventDetails, takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * Blocks or unblocks an account with a reason (R12 support), through the domain's state machine
 * (events `block` and `unblock`, decision 019): a transition it refuses, or blocking an account
 * that is blocked already, is 409 ACTION_NOT_ALLOWED and changes nothing. The status change's
 * account event names the member.
 */
export async function setAccountBlocked(
  db: Database,
  input: Omit<StaffActionInput, 'action'> & { reason: string },
  blocked: boolean,
): Promise<TStaffActionResult> {
  const action = blocked ? 'block' : 'unblock';
  return takeStaffAction(db, { ...input, action }, async (tx, user) => {
    if (blocked && user.accountStatus === 'blocked') {
      throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
    }
    try {
      await changeAccountStatus(tx, {
        userId: user.id,
        from: user.accountStatus,
        event: action,
        note: `${blocked ? 'blocked' : 'unblocked'} by staff: ${input.reason}`,
        actor: 'staff',
        now: input.now,
        details: { ...staffEventDetails(input.actor), reason: input.reason },
      });
    } catch (error) {
      if (error instanceof AccountTransitionRefused) {
        throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED, { cause: error });
      }
      throw error;
    }
  });
}
