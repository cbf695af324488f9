import { eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, paymentDeclines, subscriptions } from '../../../db/schema.ts';
import { addBalanceEntries, periodChargeEntry } from '../account-balance.ts';
import type { ClaimedRenewal } from './billing-deps.ts';
import { lockAccount } from './lock-account.ts';
import { nextAttempt } from './next-attempt.ts';

/**
 * A declined attempt outside R4's schedule: the staff's "Retry renewal now" (DECISIONS R16). The
 * decline is kept with its reason, and the period's next try gets a new attempt number (so a new
 * idempotency key, or the gateway would answer this decline again), but the account's schedule is
 * as it was: the same failed-attempt count, the same next scheduled retry, no status change and
 * no e-mail. Only recordDecline, for the schedule's own attempts, can make an account inactive.
 */
export async function recordExtraDecline(
  tx: Transaction,
  renewal: ClaimedRenewal,
  now: Date,
  reason: string,
  scheduledRetryAt: Date | null,
): Promise<void> {
  // The account first, then its period (docs/decisions/028).
  await lockAccount(tx, renewal.userId);
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, renewal.periodId))
    .for('update');
  if (!period) throw new Error('billing period vanished');
  // Owed since the first decline already; the entry is once per period, so this changes nothing
  // then, and keeps the balance right if the staff attempt is the period's first answer.
  await addBalanceEntries(tx, [periodChargeEntry(period)], now);
  await tx.insert(paymentDeclines).values({
    userId: renewal.userId,
    billingPeriodId: period.id,
    kind: 'staff retry',
    attempt: period.attempt,
    reason,
    at: now,
  });
  await tx.update(billingPeriods).set(nextAttempt(period)).where(eq(billingPeriods.id, period.id));
  const [subscription] = await tx
    .select({ profileId: subscriptions.gatewayPaymentProfileId })
    .from(subscriptions)
    .where(eq(subscriptions.userId, renewal.userId))
    .for('update');
  // A card saved while this attempt was in flight is tried at once (R4), as recordDecline does
  // for a scheduled attempt: the old card's decline says nothing of the new one.
  const cardReplaced =
    period.gatewayPaymentProfileId !== null &&
    subscription?.profileId != null &&
    period.gatewayPaymentProfileId !== subscription.profileId;
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: cardReplaced ? now : scheduledRetryAt, updatedAt: now })
    .where(eq(subscriptions.userId, renewal.userId));
}
