import { and, eq } from 'drizzle-orm';
import type { TSubscriptionCode } from '@dealerpass/domain/catalogue';
import { reactivationChargeCents } from '@dealerpass/domain/billing/charges';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import { ERROR_CODES, errorMessage } from '@dealerpass/domain/messages';
import { quote, type IQuote } from '@dealerpass/domain/prices';
import { CARD_MESSAGES } from '@dealerpass/domain/schemas/messages';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { PaymentGateway } from '../../adapters/payments/payment-gateway.ts';
import { billingPeriods, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { getUserRow } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';
import { getSubscriptionRow, type BillingApiDeps } from './billing-context.ts';
import { storePaymentProfile, type PaymentProfileInput } from './payment-profile.ts';
import { recordPayment, setStatus, type ClaimedRenewal } from './run-billing.ts';

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
 *   and the balance cleared, with a payment row and its stored receipt. A decline (or a gateway
 *   failure) puts it back to inactive and answers 000 §8's reactivation text.
 */
export async function reactivate(
  deps: BillingApiDeps,
  userId: string,
  input: PaymentProfileInput,
): Promise<UserRow> {
  const user = await getUserRow(deps.db, userId);
  const hasToken = input.paymentToken.trim() !== '';

  if (user.accountStatus === 'pending cancel') {
    if (hasToken) await storePaymentProfile(deps, userId, input, { retryDueRenewal: false });
    const now = deps.now();
    await deps.db.transaction(async (tx) => {
      const [current] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
      if (current?.accountStatus !== 'pending cancel') throw reactivationFailed();
      await tx
        .update(subscriptions)
        .set({ cancelRequestedAt: null, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
      await setStatus(
        tx,
        userId,
        'pending cancel',
        'active',
        'reactivated during pending cancel: no charge',
        'user',
        now,
      );
    });
    return getUserRow(deps.db, userId);
  }

  if (user.accountStatus !== 'inactive') throw reactivationFailed();
  if (!hasToken) {
    throw new AppError(ERROR_CODES.VALIDATION_FAILED, {
      errors: [{ source: 'paymentToken', message: CARD_MESSAGES.numberRequired }],
    });
  }
  await storePaymentProfile(deps, userId, input, { retryDueRenewal: false });

  const claimed = await openReactivationPeriod(deps, userId);
  let outcome: Awaited<ReturnType<PaymentGateway['charge']>> | { status: 'failed' };
  try {
    outcome =
      claimed.amountCents === 0
        ? { status: 'approved', transactionId: 'no-charge' }
        : await deps.payments.charge({
            customerProfileId: claimed.customerProfileId,
            paymentProfileId: claimed.paymentProfileId,
            amountCents: claimed.amountCents,
            idempotencyKey: claimed.idempotencyKey,
            description: 'DealerPass reactivation',
          });
  } catch (error) {
    deps.log.warn({ userId, err: error }, 'reactivation charge failed');
    outcome = { status: 'failed' };
  }

  const now = deps.now();
  if (outcome.status === 'approved') {
    const transactionId = outcome.transactionId;
    const today = toIsoDate(calendarDateIn(now, deps.timeZone));
    await deps.db.transaction(async (tx) => {
      await setStatus(
        tx,
        userId,
        'pending reactivation',
        'active',
        'reactivation paid',
        'user',
        now,
      );
      await tx
        .update(subscriptions)
        .set({ cycleAnchor: today, cancelRequestedAt: null, failedAttempts: 0, updatedAt: now })
        .where(eq(subscriptions.userId, userId));
      await tx.update(users).set({ balanceCents: 0, updatedAt: now }).where(eq(users.id, userId));
      await recordPayment(tx, deps, claimed, transactionId, now);
    });
    return getUserRow(deps.db, userId);
  }

  const reason = outcome.status === 'declined' ? outcome.reason : 'gateway failure';
  await deps.db.transaction(async (tx) => {
    const [period] = await tx
      .select()
      .from(billingPeriods)
      .where(eq(billingPeriods.id, claimed.periodId))
      .for('update');
    if (period) {
      // The next attempt is a new charge: a new key (the same key would answer this decline).
      const attempt = period.attempt + 1;
      await tx
        .update(billingPeriods)
        .set({
          status: 'failed',
          settledAt: now,
          attempt,
          idempotencyKey: `reactivation:${userId}:${period.periodStart}:${attempt}`,
        })
        .where(eq(billingPeriods.id, period.id));
    }
    await setStatus(
      tx,
      userId,
      'pending reactivation',
      'inactive',
      `reactivation declined: ${reason}`,
      'user',
      now,
    );
  });
  throw new AppError(ERROR_CODES.REACTIVATION_FAILED, {
    message: errorMessage(ERROR_CODES.REACTIVATION_FAILED),
  });
}

/** In one transaction: the period of today (created or reopened) and pending reactivation. */
async function openReactivationPeriod(
  deps: BillingApiDeps,
  userId: string,
): Promise<ClaimedRenewal> {
  const now = deps.now();
  const todayDate = calendarDateIn(now, deps.timeZone);
  const today = toIsoDate(todayDate);
  return deps.db.transaction(async (tx) => {
    const subscription = await getSubscriptionRow(tx, userId, true);
    const [user] = await tx.select().from(users).where(eq(users.id, userId)).for('update');
    if (!subscription || !user || user.accountStatus !== 'inactive') throw reactivationFailed();
    if (!subscription.gatewayCustomerId || !subscription.gatewayPaymentProfileId) {
      throw reactivationFailed();
    }
    const codes = subscription.codes as TSubscriptionCode[];
    const amountCents = reactivationChargeCents(codes, now, user.balanceCents);
    const priced = quote(codes, now);
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
                code: 'BALANCE' as TSubscriptionCode,
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
      .onConflictDoNothing({ target: [billingPeriods.userId, billingPeriods.periodStart] });
    const [period] = await tx
      .select()
      .from(billingPeriods)
      .where(and(eq(billingPeriods.userId, userId), eq(billingPeriods.periodStart, today)));
    if (!period || period.kind !== 'reactivation' || period.status === 'paid') {
      throw reactivationFailed();
    }
    if (period.status === 'failed') {
      await tx
        .update(billingPeriods)
        .set({ status: 'due', settledAt: null, amountCents, quote: charged, periodEnd })
        .where(eq(billingPeriods.id, period.id));
    }
    await setStatus(
      tx,
      userId,
      'inactive',
      'pending reactivation',
      'reactivation charge in flight',
      'user',
      now,
    );
    return {
      userId,
      periodId: period.id,
      idempotencyKey: period.idempotencyKey,
      amountCents: period.status === 'failed' ? amountCents : period.amountCents,
      customerProfileId: subscription.gatewayCustomerId,
      paymentProfileId: subscription.gatewayPaymentProfileId,
    };
  });
}
