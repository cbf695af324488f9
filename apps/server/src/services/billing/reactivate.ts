import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, eq } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { reactivationChargeCents } from '@dealerpass/domain/billing/charges';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { BILLED_PERIOD, billingPeriods, subscriptions } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { getUserRow } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';
import { CARRIED_BALANCE_CODE, getBalanceCents } from './account-balance.ts';
import { getSubscriptionRow, type BillingApiDeps } from './billing-context.ts';
import { storePaymentProfile, type PaymentProfileInput } from './payment-profile.ts';
import { CHARGE_LEASE_MS, keepLeased } from './charge-lease.ts';
import type { ClaimedRenewal } from './ledger/billing-deps.ts';
import { completeReactivation } from './ledger/complete-reactivation.ts';
import { failReactivation } from './ledger/fail-reactivation.ts';
import { sendCharge } from './ledger/send-charge.ts';
import { changeAccountStatus } from './ledger/change-account-status.ts';
import { lockAccount } from './ledger/lock-account.ts';
import { applyDueRemovals } from './run/apply-pending-removals.ts';

const reactivationFailed = (cause?: unknown) =>
  new AppError(ERROR_CODES.REACTIVATION_FAILED, cause === undefined ? {} : { cause });

/**
 * PUT /api/users/reactivate (R4).
 * - Pending cancel: back to active, no charge (a card sent along is saved).
 * - Inactive: the card is saved as in PUT /api/users/paymentProfile, then the current monthly
 *   price of the previous selections plus any balance is charged as a 'reactivation' period
 *   starting today (unique per account and period; key `reactivation:<user>:<date>`, with
 *   `:<attempt>` appended for a later attempt the same day). The account is pending
 *   reactivation while the charge is in flight, then active with a new cycle anchor of today
 *   and the balance cleared, with a payment row and its stored receipt. A decline (or a refusal
 *   no retry can change) puts it back to inactive and answers 000 §8's reactivation text. A
 *   gateway that does not answer leaves it pending reactivation under a lease: the charge may
 *   have gone through, so the billing run resends the same request (same key, same card) when
 *   the lease runs out and finishes the reactivation either way (also after a crash).
 */
export async function reactivate(
  deps: BillingApiDeps,
  userId: string,
  input: PaymentProfileInput,
): Promise<UserRow> {
  const user = await getUserRow(deps.db, userId);
  const hasToken = input.paymentToken.trim() !== '';

  if (user.accountStatus === ACCOUNT_STATUS.pendingCancel) {
    if (hasToken) await storePaymentProfile(deps, userId, input, { retryDueRenewal: false });
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const current = await lockAccount(tx, userId);
      if (current?.accountStatus !== ACCOUNT_STATUS.pendingCancel) throw reactivationFailed();
      await tx
        .update(subscriptions)
        .set({ cancelRequestedAt: null, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
      await changeAccountStatus(tx, {
        userId,
        from: ACCOUNT_STATUS.pendingCancel,
        event: 'reactivate',
        note: 'reactivated during pending cancel: no charge',
        actor: 'user',
        now,
      });
    });
    return getUserRow(deps.db, userId);
  }

  if (user.accountStatus !== ACCOUNT_STATUS.inactive) throw reactivationFailed();
  if (!hasToken) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [{ source: 'paymentToken', message: CARD_MESSAGES.numberRequired }],
    });
  }
  await storePaymentProfile(deps, userId, input, { retryDueRenewal: false });

  const lease = new Date(deps.now().getTime() + CHARGE_LEASE_MS);
  const claimed = await openReactivationPeriod(deps, userId, lease);
  // Renewed while the gateway answers, so the run takes over only a request that stopped.
  const leases = keepLeased(deps, [userId], lease);
  const outcome = await sendCharge(deps, claimed).finally(() => leases.stop());
  if (outcome.status === 'retry') {
    // The gateway did not answer (or asked for a later try): the charge may have gone through.
    // The account stays pending reactivation, and when the lease runs out the billing run sends
    // the same request again under the same key and finishes the reactivation either way.
    throw reactivationFailed();
  }
  const now = deps.now();
  if (outcome.status === 'approved') {
    await deps.db.transaction((tx) =>
      completeReactivation(tx, deps, claimed, outcome.transactionId, now, 'user'),
    );
    return getUserRow(deps.db, userId);
  }
  await deps.db.transaction((tx) => failReactivation(tx, claimed, outcome.reason, now, 'user'));
  throw new AppError(ERROR_CODES.REACTIVATION_FAILED, {
    message: errorMessage(ERROR_CODES.REACTIVATION_FAILED),
  });
}

/** In one transaction: the period of today (created or reopened) and pending reactivation. */
async function openReactivationPeriod(
  deps: BillingApiDeps,
  userId: string,
  lease: Date,
): Promise<ClaimedRenewal> {
  const now = deps.now();
  const todayDate = calendarDateIn(now, deps.timeZone);
  const today = toIsoDate(todayDate);
  return deps.db.transaction(async (tx) => {
    // The account, then its subscription (docs/decisions/028).
    const user = await lockAccount(tx, userId);
    const subscription = await getSubscriptionRow(tx, userId, true);
    if (!subscription || !user || user.accountStatus !== ACCOUNT_STATUS.inactive)
      throw reactivationFailed();
    if (!subscription.gatewayCustomerId || !subscription.gatewayPaymentProfileId) {
      throw reactivationFailed();
    }
    // R10: removals a change left pending end with the old cycle; the new one starts without them.
    await applyDueRemovals(
      tx,
      [{ ...subscription, periodStart: today, pendingRemovalsAt: null }],
      now,
    );
    const [current] = await tx
      .select({ codes: subscriptions.codes })
      .from(subscriptions)
      .where(eq(subscriptions.userId, userId));
    const codes = (current?.codes ?? subscription.codes) as TSubscriptionCode[];
    const amountCents = reactivationChargeCents(
      codes,
      now,
      await getBalanceCents(tx, userId),
      deps.prices.table(),
    );
    const priced = quote(codes, now, deps.prices.table());
    const adjustment = amountCents - priced.totalCents;
    const charged: IQuote = {
      ...priced,
      // The balance owed (or the credit used) is a line of its own on the receipt.
      lines:
        adjustment === 0
          ? priced.lines
          : [
              ...priced.lines,
              {
                code: CARRIED_BALANCE_CODE as TSubscriptionCode,
                name: adjustment > 0 ? 'Previous balance' : 'Account credit',
                cents: adjustment,
                listCents: adjustment,
                free: false,
              },
            ],
      totalCents: amountCents,
    };
    const periodEnd = toIsoDate(nextBillDate(todayDate, todayDate));
    await tx
      .insert(billingPeriods)
      .values({
        userId,
        kind: 'reactivation',
        periodStart: today,
        periodEnd,
        amountCents,
        quote: charged,
        idempotencyKey: `reactivation:${userId}:${today}`,
      })
      .onConflictDoNothing({
        target: [billingPeriods.userId, billingPeriods.periodStart],
        where: BILLED_PERIOD,
      });
    const [period] = await tx
      .select()
      .from(billingPeriods)
      .where(
        and(
          eq(billingPeriods.userId, userId),
          eq(billingPeriods.periodStart, today),
          BILLED_PERIOD,
        ),
      );
    if (!period || period.kind !== 'reactivation' || period.status === 'paid') {
      throw reactivationFailed();
    }
    // The attempt charges the card just saved; a retry of it (after a crash) charges the same.
    const card = {
      gatewayCustomerId: subscription.gatewayCustomerId,
      gatewayPaymentProfileId: subscription.gatewayPaymentProfileId,
      cardBrand: user.cardBrand,
      cardLast4: user.cardLast4,
    };
    await tx
      .update(billingPeriods)
      .set(
        period.status === 'failed'
          ? { status: 'due', settledAt: null, amountCents, quote: charged, periodEnd, ...card }
          : card,
      )
      .where(eq(billingPeriods.id, period.id));
    // Leased while the request charges; if it never finishes, the billing run does after this.
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: lease, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    await changeAccountStatus(tx, {
      userId,
      from: ACCOUNT_STATUS.inactive,
      event: 'reactivationCharging',
      note: 'reactivation charge in flight',
      actor: 'user',
      now,
    });
    return {
      userId,
      periodId: period.id,
      kind: 'reactivation',
      idempotencyKey: period.idempotencyKey,
      amountCents: period.status === 'failed' ? amountCents : period.amountCents,
      customerProfileId: subscription.gatewayCustomerId,
      paymentProfileId: subscription.gatewayPaymentProfileId,
      cardBrand: user.cardBrand,
      cardLast4: user.cardLast4,
    };
  });
}
