import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, desc, eq, gte, isNotNull } from 'drizzle-orm';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type {
  TRetryRenewalOutcome,
  TRetryRenewalResult,
} from '@dealerpass/domain/admin/account-actions';
import type { Database } from '../../../db/client.ts';
import { billingPeriods, paymentDeclines, subscriptions, users } from '../../../db/schema.ts';
import { AppError } from '../../../errors/app-error.ts';
import { runBilling, type BillingDeps } from '../../billing/run-billing.ts';
import { accountState, takeStaffAction, type StaffActionInput } from './take-staff-action.ts';
import { findStaffAction } from '../audit/staff-audit.ts';

/**
 * Retries a failed renewal now (R12 billing), as one more attempt outside R4's schedule
 * (DECISIONS R16). The action makes the renewal due at once and audits that; the charge is the
 * billing run's own for this account: its claim, the attempt's idempotency key, its record of the
 * payment. Approved: the account is paid as with a new card. Declined: the decline is recorded
 * and the schedule is put back as it was (its next retry, its failed-attempt count): only R4's
 * scheduled attempts make an account inactive. The answer says which (`outcome`), so the console
 * reports what the gateway did, never the click.
 * Money moves once per attempt however often it is asked: a second request while the attempt is
 * leased is 409 ACTION_IN_PROGRESS, and a repeated key answers the first request's outcome.
 * Only a validating-payment account with a card on file has a renewal to retry.
 */
export async function retryRenewal(
  deps: BillingDeps,
  input: Omit<StaffActionInput, 'action'>,
): Promise<TRetryRenewalResult> {
  let scheduledRetryAt: Date | null = null;
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
      scheduledRetryAt = subscription.nextRetryAt;
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
  if (result.repeated) return { ...result, ...(await earlierOutcome(deps.db, input)) };
  const run = await runBilling(deps, {
    userId: input.userId,
    extraAttempt: { scheduledRetryAt },
  });
  const [user] = await deps.db.select().from(users).where(eq(users.id, input.userId));
  const account = user ? await accountState(deps.db, user) : result.account;
  const outcome: TRetryRenewalOutcome =
    run.charged > 0 ? 'paid' : run.declined > 0 ? 'declined' : 'pending';
  return {
    ...result,
    account,
    outcome,
    declineReason: outcome === 'declined' ? (run.declineReason ?? null) : null,
  };
}

/**
 * What the first request with this key came to, for its repeat: paid when the account left
 * validating payment, declined when a staff retry's decline was recorded after its audit row.
 */
async function earlierOutcome(
  db: Database,
  input: Pick<StaffActionInput, 'requestKey' | 'userId'>,
): Promise<Pick<TRetryRenewalResult, 'outcome' | 'declineReason'>> {
  const audit = await findStaffAction(db, input.requestKey);
  const [user] = await db
    .select({ accountStatus: users.accountStatus })
    .from(users)
    .where(eq(users.id, input.userId));
  if (user && user.accountStatus !== ACCOUNT_STATUS.validatingPayment) {
    return { outcome: 'paid', declineReason: null };
  }
  const [decline] = audit
    ? await db
        .select({ reason: paymentDeclines.reason })
        .from(paymentDeclines)
        .where(
          and(
            eq(paymentDeclines.userId, input.userId),
            eq(paymentDeclines.kind, 'staff retry'),
            gte(paymentDeclines.at, audit.at),
          ),
        )
        .orderBy(desc(paymentDeclines.at))
        .limit(1)
    : [];
  return decline
    ? { outcome: 'declined', declineReason: decline.reason }
    : { outcome: 'pending', declineReason: null };
}
