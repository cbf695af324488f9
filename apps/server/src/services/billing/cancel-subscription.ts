import { canTake } from '@dealerpass/domain/account/status-transitions';
import { and, asc, eq } from 'drizzle-orm';
import { cancellationKind } from '@dealerpass/domain/billing/charges';
import { ERROR_CODES } from '@dealerpass/domain/messages';
import type { TCancelSubscriptionRequest } from '@dealerpass/domain/schemas/cancellation';
import { PaymentGatewayError } from '../../adapters/payments/payment-gateway.ts';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, billingPeriods, payments, subscriptions, users } from '../../db/schema.ts';
import { AppError } from '../../errors/app-error.ts';
import { enqueueMail } from '../mail/enqueue-mail.ts';
import { refundMail } from '../receipts/refund-receipt.ts';
import { getUserRow } from '../users/get-user-row.ts';
import type { UserRow } from '../users/serialize-user.ts';
import { getSubscriptionRow, type BillingApiDeps } from './billing-context.ts';
import { changeAccountStatus } from './ledger/change-account-status.ts';
import { lockAccount } from './ledger/lock-account.ts';
import { refundableCents } from './payment-refunds.ts';

const cancelFailed = (cause?: unknown) =>
  new AppError(ERROR_CODES.CANCEL_ACCOUNT_FAILED, cause === undefined ? {} : { cause });

/**
 * PATCH /api/users/cancel (R4). Within 10 days of the sign-up charge the charge is refunded
 * through the gateway (key `refund:<paymentId>`) and the account is inactive at once; after the
 * trial it is pending cancel: access continues, no further charge, and the billing run makes it
 * inactive at the period's end. Every failure is the cancellation text of 000 §8.
 */
export async function cancelSubscription(
  deps: BillingApiDeps,
  userId: string,
  request: TCancelSubscriptionRequest,
): Promise<UserRow> {
  const user = await getUserRow(deps.db, userId);
  // The state machine decides who may cancel (R4), not a list of its own here.
  if (!canTake(user.accountStatus, 'cancel')) throw cancelFailed();
  const [signup] = await deps.db
    .select({ payment: payments })
    .from(billingPeriods)
    .innerJoin(payments, eq(payments.billingPeriodId, billingPeriods.id))
    .where(
      and(
        eq(billingPeriods.userId, userId),
        eq(billingPeriods.kind, 'signup'),
        eq(billingPeriods.status, 'paid'),
        eq(payments.status, 'succeeded'),
      ),
    )
    .orderBy(asc(billingPeriods.createdAt))
    .limit(1);
  const payment = signup?.payment;
  const inTrial =
    payment !== undefined && cancellationKind(payment.createdAt, deps.now()) === 'cancelInTrial';

  const rest = inTrial ? await claimTrialRefund(deps.db, userId, payment.id, deps.now()) : 0;
  if (inTrial && rest > 0) {
    try {
      await deps.payments.refund({
        transactionId: payment.gatewayTransactionId,
        amountCents: rest,
        idempotencyKey: `refund:${payment.id}`,
      });
    } catch (error) {
      // Refused: nothing was refunded, so staff may refund the payment again. Unanswered: the
      // refund may have happened; the claim stays for the retry, which the key makes one refund.
      if (error instanceof PaymentGatewayError && !error.retryable) {
        await releaseTrialRefund(deps.db, payment.id);
      }
      throw cancelFailed(error);
    }
  }

  const now = deps.now();
  await deps.db.transaction(async (tx) => {
    // The account, then its subscription (docs/decisions/028).
    const current = await lockAccount(tx, userId);
    const subscription = await getSubscriptionRow(tx, userId, true);
    if (!current || !canTake(current.accountStatus, 'cancel')) throw cancelFailed();
    await recordReason(tx, userId, request, now);
    if (subscription) {
      // R14: a year a returned check left owed is still collected on R4's days after the
      // cancellation (decision 054); nothing else is charged while it is pending.
      const [owedYear] = await tx
        .select({ id: billingPeriods.id })
        .from(billingPeriods)
        .where(
          and(
            eq(billingPeriods.userId, userId),
            eq(billingPeriods.kind, 'annual'),
            eq(billingPeriods.status, 'due'),
          ),
        );
      await tx
        .update(subscriptions)
        .set({
          cancelRequestedAt: now,
          nextRetryAt: owedYear && !inTrial ? subscription.nextRetryAt : null,
          updatedAt: now,
        })
        .where(eq(subscriptions.userId, userId));
    }
    if (inTrial) {
      await tx
        .update(payments)
        .set({ status: 'refunded', refundedAt: now })
        .where(eq(payments.id, payment.id));
      // The refunded sign-up period is no period of the account's any more: a reactivation
      // the same day opens its own (R4).
      if (payment.billingPeriodId) {
        await tx
          .update(billingPeriods)
          .set({ status: 'refunded', settledAt: now })
          .where(eq(billingPeriods.id, payment.billingPeriodId));
      }
      await tx
        .update(users)
        .set({ nextBillDate: null, updatedAt: now })
        .where(eq(users.id, userId));
      // The dealer is told of the money given back, as a staff refund tells them (R12); its
      // receipt is in Payment History, with the payment.
      if (rest > 0) {
        await enqueueMail(
          tx,
          refundMail({
            company: deps.company,
            user: current,
            payment,
            refund: {
              id: payment.id,
              amountCents: rest,
              earlierRefundsCents: payment.amountCents - rest,
            },
            receiptAttached: false,
          }),
          deps.mailKind,
        );
      }
      await changeAccountStatus(tx, {
        userId,
        from: current.accountStatus,
        event: 'cancelInTrial',
        note: 'cancelled in the trial: sign-up charge refunded',
        actor: 'user',
        now,
      });
    } else if (!subscription) {
      // Nothing is billed, so there is no period end to run to: it ends now.
      await changeAccountStatus(tx, {
        userId,
        from: current.accountStatus,
        event: 'cancelUnbilled',
        note: 'cancelled',
        actor: 'user',
        now,
      });
    } else {
      await changeAccountStatus(tx, {
        userId,
        from: current.accountStatus,
        event: 'cancel',
        note: 'cancelled: runs to the next bill date',
        actor: 'user',
        now,
      });
    }
  });
  return getUserRow(deps.db, userId);
}

/**
 * Claims the sign-up payment for the trial cancellation's refund (R4) under the payment's lock,
 * the lock every staff refund of it takes (R12): what staff refunded or has in flight already is
 * not refunded again, only the rest, and once claimed no staff refund opens on it. A claim taken
 * by an earlier try that got no answer is kept with its amount, so the retry asks the same.
 */
async function claimTrialRefund(
  db: Database,
  userId: string,
  paymentId: string,
  now: Date,
): Promise<number> {
  return db.transaction(async (tx) => {
    await lockAccount(tx, userId);
    const [payment] = await tx
      .select()
      .from(payments)
      .where(eq(payments.id, paymentId))
      .for('update');
    if (!payment) throw cancelFailed();
    if (payment.refundClaimedCents !== null) return payment.refundClaimedCents;
    const rest = await refundableCents(tx, paymentId);
    await tx
      .update(payments)
      .set({ refundClaimedAt: now, refundClaimedCents: rest })
      .where(eq(payments.id, paymentId));
    return rest;
  });
}

async function releaseTrialRefund(db: Database, paymentId: string): Promise<void> {
  await db
    .update(payments)
    .set({ refundClaimedAt: null, refundClaimedCents: null })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'succeeded')));
}

async function recordReason(
  tx: Transaction,
  userId: string,
  request: TCancelSubscriptionRequest,
  now: Date,
) {
  await tx.insert(accountEvents).values({
    userId,
    event: 'cancellation reason',
    actor: 'user',
    at: now,
    details: {
      reason: request.cancellationReasonOptions[0],
      detail: request.userProvidedCancelReason,
    },
  });
}
