import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { subscriptions } from '../../../db/schema.ts';
import { changeAccountStatus } from '../ledger/change-account-status.ts';
import { lockAccount } from '../ledger/lock-account.ts';

/**
 * R4: a cancellation takes effect at the period's end, with no further charge. The status is read
 * again under a lock of its row: a batch running beside this one may have ended the same
 * cancellation a moment ago. False when it had.
 */
export async function endCancellation(
  tx: Transaction,
  userId: string,
  now: Date,
): Promise<boolean> {
  const current = await lockAccount(tx, userId);
  if (current?.accountStatus !== ACCOUNT_STATUS.pendingCancel) return false;
  await changeAccountStatus(tx, {
    userId: userId,
    from: ACCOUNT_STATUS.pendingCancel,
    event: 'billDateReached',
    note: 'cancellation took effect',
    actor: 'billing-run',
    now,
  });
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
  return true;
}
