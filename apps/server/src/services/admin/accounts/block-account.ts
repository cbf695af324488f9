import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffActionResult } from '@dealerpass/domain/admin/account-actions';
import { and, desc, eq } from 'drizzle-orm';
import { unblockEventFor } from '@dealerpass/domain/account/status-transitions';
import type { Database, Transaction } from '../../../db/client.ts';
import { accountEvents } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import {
  AccountTransitionRefused,
  changeAccountStatus,
} from '../../billing/ledger/change-account-status.ts';
import { staffEventDetails, takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * Blocks or unblocks an account with a reason (R12 support), through the domain's state machine
 * (decision 019): a transition it refuses (blocking a blocked account, unblocking one that is
 * not blocked) is 409 ACTION_NOT_ALLOWED and changes nothing. Unblocking returns the account to
 * the status it had when it was blocked (`unblockEventFor`), so a block never turns an unpaid or
 * inactive account active. The status change's account event names the member.
 */
export async function setAccountBlocked(
  db: Database,
  input: Omit<StaffActionInput, 'action'> & { reason: string },
  blocked: boolean,
): Promise<TStaffActionResult> {
  const action = blocked ? 'block' : 'unblock';
  return takeStaffAction(db, { ...input, action }, async (tx, user) => {
    try {
      await changeAccountStatus(tx, {
        userId: user.id,
        from: user.accountStatus,
        event: blocked ? 'block' : unblockEventFor(await statusBeforeBlock(tx, user.id)),
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

/** The status the account had when it was last blocked, from its status history. */
async function statusBeforeBlock(tx: Transaction, userId: string): Promise<string | null> {
  const [row] = await tx
    .select({ from: accountEvents.fromStatus })
    .from(accountEvents)
    .where(
      and(eq(accountEvents.userId, userId), eq(accountEvents.toStatus, ACCOUNT_STATUS.blocked)),
    )
    .orderBy(desc(accountEvents.at))
    .limit(1);
  return row?.from ?? null;
}
