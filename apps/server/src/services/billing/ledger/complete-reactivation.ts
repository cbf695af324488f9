import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { eq } from 'drizzle-orm';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, subscriptions } from '../../../db/schema.ts';
import type { BillingDeps, ClaimedRenewal } from './billing-deps.ts';
import { lockAccount } from './lock-account.ts';
import { recordPayment } from './record-payment.ts';
import { changeAccountStatus } from './change-account-status.ts';
import { moveOpenInvoiceToCycle } from '../../annual-billing/reissue-invoice.ts';
import { paidYearAfter, paidYearOn } from '../../annual-billing/paid-year.ts';

/**
 * A reactivation's charge was approved (R4): the account is active again, its new cycle starts on
 * the period's first day, and the payment is recorded (it pays the balance it carried); an open
 * annual invoice moves to the new cycle (decision 054). Inside a paid year the cycle stays and the
 * payment pays only the balance (decision 058); before one the cycle stays too, so that it leads
 * into the year (decision 060). Does nothing if the request or another run finished it first.
 */
export async function completeReactivation(
  tx: Transaction,
  deps: BillingDeps,
  renewal: ClaimedRenewal,
  transactionId: string,
  now: Date,
  actor: string,
): Promise<void> {
  const user = await lockAccount(tx, renewal.userId);
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, renewal.periodId));
  if (
    !user ||
    !period ||
    period.status !== 'due' ||
    user.accountStatus !== ACCOUNT_STATUS.pendingReactivation
  ) {
    return;
  }
  await changeAccountStatus(tx, {
    userId: user.id,
    from: ACCOUNT_STATUS.pendingReactivation,
    event: 'reactivationSucceeded',
    note: 'reactivation paid',
    actor,
    now,
  });
  // R14 (decision 058): inside a paid year the reactivation paid only what was owed; the account
  // keeps the year's cycle, and its period is the year (from its first day on, decision 060), its
  // next bill date the year's end.
  const year = await paidYearOn(tx, user.id, period.periodStart);
  if (year && year.periodEnd === period.periodEnd) {
    await tx
      .update(subscriptions)
      .set({ cancelRequestedAt: null, failedAttempts: 0, updatedAt: now })
      .where(eq(subscriptions.userId, user.id));
    await recordPayment(tx, deps, renewal, transactionId, now);
    await tx
      .update(subscriptions)
      .set({ currentPeriodStart: year.periodStart, updatedAt: now })
      .where(eq(subscriptions.userId, user.id));
    return;
  }
  // R14 (decision 060): before a paid year the cycle stays, so that its bill dates lead into the
  // year and the run passes it at its first day; the period runs to the next of them.
  const ahead = year ? null : await paidYearAfter(tx, user.id, period.periodStart);
  if (ahead && period.periodEnd <= ahead.periodStart) {
    await tx
      .update(subscriptions)
      .set({ cancelRequestedAt: null, failedAttempts: 0, updatedAt: now })
      .where(eq(subscriptions.userId, user.id));
    await recordPayment(tx, deps, renewal, transactionId, now);
    return;
  }
  await tx
    .update(subscriptions)
    .set({
      cycleAnchor: period.periodStart,
      cancelRequestedAt: null,
      failedAttempts: 0,
      updatedAt: now,
    })
    .where(eq(subscriptions.userId, user.id));
  await recordPayment(tx, deps, renewal, transactionId, now);
  // R14: an invoice asked before the account went inactive is for a year of the old cycle; it
  // follows the new one (decision 054).
  await moveOpenInvoiceToCycle(tx, deps, {
    user,
    cycleAnchor: period.periodStart,
    now,
    actor: actor === 'user' ? 'user' : 'billing-run',
  });
}
