import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { renewalOutcomeEvent } from '@dealerpass/domain/account/status-transitions';
import { eq } from 'drizzle-orm';
import { scheduledRetryAt } from '@dealerpass/domain/billing/dunning';
import { nextBillDate } from '@dealerpass/domain/billing/renewal-calendar';
import { parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import { paidYearAfter } from '../../annual-billing/paid-year.ts';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, paymentDeclines, subscriptions } from '../../../db/schema.ts';
import { enqueueMail } from '../../mail/enqueue-mail.ts';
import { accountInactiveMail } from '../../mail/messages/account-inactive-mail.ts';
import { renewalDeclinedMail } from '../../mail/messages/renewal-declined-mail.ts';
import { addBalanceEntries, getBalanceCents, periodChargeEntry } from '../account-balance.ts';
import type { BillingDeps } from './billing-deps.ts';
import { lockAccount } from './lock-account.ts';
import { advancePeriod } from './advance-periods.ts';
import { nextAttempt } from './next-attempt.ts';
import { changeAccountStatus } from './change-account-status.ts';

const DAY_MS = 86_400_000;

/**
 * A charge the run makes to an account that is pending cancel, whose answer leaves the
 * cancellation standing: a year owed after a returned check (R14, decision 054), or a month
 * billed before a paid year that has not begun (decision 058). `billDate` is the renewal's date
 * when the decline names no period (no card on file).
 */
export async function billedWhilePendingCancel(
  tx: Transaction,
  status: string,
  userId: string,
  period: { kind: string; periodStart: string } | undefined,
  billDate: string,
): Promise<boolean> {
  if (status !== ACCOUNT_STATUS.pendingCancel) return false;
  if (period?.kind === 'annual') return true;
  if (period && period.kind !== 'renewal') return false;
  return (await paidYearAfter(tx, userId, period?.periodStart ?? billDate)) !== null;
}

/**
 * R4 dunning: retries 1, 3 and 5 days after the first failure, an e-mail each time; after the last
 * failure, inactive with the balance owed.
 */
export async function recordDecline(
  tx: Transaction,
  deps: BillingDeps,
  userId: string,
  now: Date,
  reason: string,
  periodId?: string,
  /** The claimed attempt's key: a decline of an attempt already recorded is not counted again. */
  attemptKey?: string,
): Promise<void> {
  // The account, then its subscription (docs/decisions/028).
  const user = await lockAccount(tx, userId);
  const [subscription] = await tx
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .for('update');
  if (!subscription || !user) throw new Error('subscription or user vanished');
  const failures = subscription.failedAttempts + 1;
  // R4: the retries fall 1, 3 and 5 days after the first failure (decision 052).
  const since = failures === 1 || !subscription.dunningSince ? now : subscription.dunningSince;
  const retryAt = scheduledRetryAt(since, failures);
  const [period] = periodId
    ? await tx.select().from(billingPeriods).where(eq(billingPeriods.id, periodId))
    : [];
  // Two claims of one attempt (a lease taken over while its charge was answered late) send the
  // same key and get the same answer; only the first record of it counts (R4: one retry each).
  if (period && attemptKey && (period.idempotencyKey !== attemptKey || period.status !== 'due')) {
    return;
  }
  // The renewal was due and is not paid: it is owed from now until a payment settles it.
  if (period) await addBalanceEntries(tx, [periodChargeEntry(period)], now);
  await tx.insert(paymentDeclines).values({
    userId,
    billingPeriodId: period?.id ?? null,
    kind: 'renewal',
    attempt: period?.attempt ?? null,
    reason,
    at: now,
  });

  if (
    period?.gatewayPaymentProfileId &&
    subscription.gatewayPaymentProfileId &&
    period.gatewayPaymentProfileId !== subscription.gatewayPaymentProfileId
  ) {
    // The attempt charged a card replaced since it was claimed (a retry after a crash): the
    // new card is tried at once as a new attempt, and the old card's answer counts for nothing.
    await tx
      .update(billingPeriods)
      .set(nextAttempt(period))
      .where(eq(billingPeriods.id, period.id));
    await tx
      .update(subscriptions)
      .set({ nextRetryAt: now, updatedAt: now })
      .where(eq(subscriptions.userId, userId));
    return;
  }

  if (retryAt !== null) {
    await tx
      .update(subscriptions)
      .set({
        failedAttempts: failures,
        nextRetryAt: retryAt,
        dunningSince: since,
        updatedAt: now,
      })
      .where(eq(subscriptions.userId, userId));
    if (period) {
      // The next try is a new charge: a new attempt number, so a new idempotency key.
      await tx
        .update(billingPeriods)
        .set(nextAttempt(period))
        .where(eq(billingPeriods.id, period.id));
    }
    // A block made while the charge was in flight stands: the decline is recorded, the status
    // stays (a blocked account takes no charge's answer, status-transitions).
    // A pending cancellation charged for a year a returned check left owed (decision 054), or for
    // a month before a paid year (decision 058), stays pending cancel: the dealer's cancellation
    // stands while R4's retries collect it.
    if (
      user.accountStatus !== ACCOUNT_STATUS.validatingPayment &&
      user.accountStatus !== ACCOUNT_STATUS.blocked &&
      !(await billedWhilePendingCancel(
        tx,
        user.accountStatus,
        userId,
        period,
        subscription.currentPeriodEnd,
      ))
    ) {
      await changeAccountStatus(tx, {
        userId,
        from: user.accountStatus,
        event: renewalOutcomeEvent(user.accountStatus, 'failed'),
        note: `renewal declined: ${reason}`,
        actor: 'billing-run',
        now,
      });
    }
    await enqueueMail(
      tx,
      {
        to: user.email,
        content: renewalDeclinedMail({
          company: deps.company,
          firstName: user.firstName,
          reason,
          retryDays: Math.max(1, Math.round((retryAt.getTime() - now.getTime()) / DAY_MS)),
        }),
      },
      deps.mailKind,
    );
    return;
  }

  await tx
    .update(subscriptions)
    .set({ failedAttempts: failures, nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, userId));
  if (period)
    await tx
      .update(billingPeriods)
      .set({ status: 'failed', settledAt: now })
      .where(eq(billingPeriods.id, period.id));
  // R14, R4 (decision 060): the last month a pending cancellation is billed before a year paid by
  // check stays owed (its amount in the balance), but the cancellation, not the decline, decides
  // when the account becomes inactive: at the year's end (decision 058). The account stays pending
  // cancel and moves past the month, so the run passes the year at its first day.
  if (
    period?.kind !== 'annual' &&
    (await billedWhilePendingCancel(
      tx,
      user.accountStatus,
      userId,
      period,
      subscription.currentPeriodEnd,
    ))
  ) {
    const start = period?.periodStart ?? subscription.currentPeriodEnd;
    const end =
      period?.periodEnd ??
      toIsoDate(nextBillDate(parseIsoDate(subscription.cycleAnchor)!, parseIsoDate(start)!));
    await advancePeriod(tx, userId, end, start, now);
    return;
  }
  const owed = await getBalanceCents(tx, userId);
  if (user.accountStatus !== ACCOUNT_STATUS.blocked) {
    await changeAccountStatus(tx, {
      userId,
      from: user.accountStatus,
      event: 'finalRetryFailed',
      note: `last retry declined: ${reason}`,
      actor: 'billing-run',
      now,
    });
  }
  await enqueueMail(
    tx,
    {
      to: user.email,
      content: accountInactiveMail({
        company: deps.company,
        firstName: user.firstName,
        owedCents: owed,
      }),
    },
    deps.mailKind,
  );
}
