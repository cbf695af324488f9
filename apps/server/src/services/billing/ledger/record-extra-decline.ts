import { eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, paymentDeclines, subscriptions } from '../../../db/schema.ts';
import { addBalanceEntries, periodChargeEntry } from '../account-balance.ts';
import type { ClaimedRenewal } from './billing-deps.ts';
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
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: scheduledRetryAt, updatedAt: now })
    .where(eq(subscriptions.userId, renewal.userId));
}
