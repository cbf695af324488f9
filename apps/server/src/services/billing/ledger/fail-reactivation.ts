import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, paymentDeclines, subscriptions } from '../../../db/schema.ts';
import type { ClaimedRenewal } from './billing-deps.ts';
import { lockAccount } from './lock-account.ts';
import { nextAttempt } from './next-attempt.ts';
import { changeAccountStatus } from './change-account-status.ts';

/**
 * A reactivation's charge was declined (or refused): the period's attempt is closed with a new
 * key for any later try (the same key would answer this decline again), and the account is
 * inactive again. Does nothing if it was finished first.
 */
export async function failReactivation(
  tx: Transaction,
  renewal: ClaimedRenewal,
  reason: string,
  now: Date,
  actor: string,
): Promise<void> {
  const user = await lockAccount(tx, renewal.userId);
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, renewal.periodId))
    .for('update');
  if (
    !user ||
    !period ||
    period.status !== 'due' ||
    user.accountStatus !== ACCOUNT_STATUS.pendingReactivation
  ) {
    return;
  }
  await tx
    .update(billingPeriods)
    .set({ status: 'failed', settledAt: now, ...nextAttempt(period) })
    .where(eq(billingPeriods.id, period.id));
  await tx.insert(paymentDeclines).values({
    userId: user.id,
    billingPeriodId: period.id,
    kind: 'reactivation',
    attempt: period.attempt,
    reason,
    at: now,
  });
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, user.id));
  await changeAccountStatus(tx, {
    userId: user.id,
    from: ACCOUNT_STATUS.pendingReactivation,
    event: 'reactivationFailed',
    note: `reactivation declined: ${reason}`,
    actor,
    now,
  });
}
