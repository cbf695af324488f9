import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, eq, isNotNull } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TStaffActionResult } from '@dealerpass/domain/staff/account-actions';
import { billingPeriods, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { runBilling, type BillingDeps } from '../billing/run-billing.ts';
import { accountState, takeStaffAction, type StaffActionInput } from './take-staff-action.ts';

/**
 * Retries a failed renewal now (R12 billing; R4's dunning). The action only makes the renewal
 * due at once, as a new card does (billing/payment-profile.ts), and audits that; the charge is
 * the billing run's own for this account: its claim, the attempt's idempotency key, its record of
 * the payment or the decline (a declined retry counts as one of R4's retries). So money moves
 * once per attempt however often it is asked: a second request while the attempt is leased is
 * 409 ACTION_IN_PROGRESS, and the run finds nothing due once the attempt is recorded.
 * Only a validating-payment account with a card on file has a renewal to retry.
 */
export async function retryRenewal(
  deps: BillingDeps,
  input: Omit<StaffActionInput, 'action'>,
): Promise<TStaffActionResult> {
  const result = await takeStaffAction(
    deps.db,
    { ...input, action: 'retryRenewal' },
    async (tx, user) => {
      if (user.accountStatus !== ACCOUNT_STATUS.validatingPayment) {
        throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
      }
      const [subscription] = await tx
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.userId, user.id))
        .for('update');
      if (!subscription?.gatewayPaymentProfileId) {
        throw new AppError(ERROR_CODES.ACTION_NOT_ALLOWED);
      }
      // A claimed attempt keeps its card on its period while its lease runs (claim-due-accounts).
      const [claimed] = await tx
        .select({ id: billingPeriods.id })
        .from(billingPeriods)
        .where(
          and(
            eq(billingPeriods.userId, user.id),
            eq(billingPeriods.status, 'due'),
            isNotNull(billingPeriods.gatewayPaymentProfileId),
          ),
        );
      const leased = subscription.nextRetryAt !== null && subscription.nextRetryAt > input.now;
      if (claimed && leased) throw new AppError(ERROR_CODES.ACTION_IN_PROGRESS);
      await tx
        .update(subscriptions)
        .set({ nextRetryAt: input.now, updatedAt: input.now })
        .where(eq(subscriptions.userId, user.id));
      return {
        before: {
          nextRetryAt: subscription.nextRetryAt?.toISOString() ?? null,
          failedAttempts: subscription.failedAttempts,
        },
        after: { nextRetryAt: input.now.toISOString() },
      };
    },
  );
  if (result.repeated) return result;
  await runBilling(deps, { userId: input.userId });
  const [user] = await deps.db.select().from(users).where(eq(users.id, input.userId));
  return user ? { ...result, account: await accountState(deps.db, user) } : result;
}
