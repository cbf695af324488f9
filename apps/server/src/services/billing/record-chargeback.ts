import { ACCOUNT_STATUS } from '@dealerpass/domain/account/status';
import { and, eq, ne } from 'drizzle-orm';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, billingPeriods, payments, subscriptions } from '../../db/schema.ts';
import { addBalanceEntries } from './account-balance.ts';
import { changeAccountStatus } from './ledger/change-account-status.ts';
import { lockAccount } from './ledger/lock-account.ts';
import { staffRefundedCents } from './payment-refunds.ts';

/** What recording a chargeback came to (R4, R15). */
export type ChargebackOutcome =
  /** Recorded now: the fee, the account inactive, `coveredCents` of the payment charged back. */
  | { status: 'recorded'; coveredCents: number }
  /** Charged back before: nothing changes. */
  | { status: 'alreadyChargedBack' }
  /** R15: refunded in full, nothing left to charge back: nothing changes, no fee. */
  | { status: 'refundedInFull' }
  /** A refund of it is at the gateway: what is left is known once it is answered. */
  | { status: 'refundInFlight' };

/**
 * A chargeback of a payment (R4): the 25-dollar fee is added to the balance and the account is
 * inactive, with an audit event naming the payment, and the payment is marked charged back: no
 * refund goes out of it after. Recording the same chargeback again changes nothing. Returns
 * whether it was recorded now.
 */
export async function recordChargeback(
  db: Database,
  input: { paymentId: string; now: Date },
): Promise<boolean> {
  const outcome = await db.transaction((tx) =>
    recordChargebackIn(tx, { ...input, actor: 'gateway' }),
  );
  return outcome.status === 'recorded';
}

/**
 * The same inside the caller's transaction, for a chargeback staff record from the operator
 * console with its audit row (R12): `actor` and `details` name who recorded it.
 *
 * R15: a chargeback covers at most what is not yet refunded of the payment: the rest after its
 * staff refunds. A payment refunded in full (by staff, or by the trial cancellation) has nothing
 * left to charge back and is refused, fee included; a refund still at the gateway is waited for.
 */
export async function recordChargebackIn(
  tx: Transaction,
  input: { paymentId: string; now: Date; actor: string; details?: Record<string, unknown> },
): Promise<ChargebackOutcome> {
  const { paymentId, now, actor } = input;
  const [owner] = await tx
    .select({ userId: payments.userId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!owner) throw new Error(`no payment ${paymentId}`);
  // The account, then the payment (docs/decisions/028). The payment's lock is the one a staff
  // refund reads what is left under, so the two never both return it.
  const user = await lockAccount(tx, owner.userId);
  if (!user) throw new Error('user vanished');
  const [payment] = await tx
    .select()
    .from(payments)
    .where(eq(payments.id, paymentId))
    .for('update');
  if (!payment) throw new Error(`no payment ${paymentId}`);
  if (payment.chargedBackAt) return { status: 'alreadyChargedBack' };
  if (payment.status !== 'succeeded') return { status: 'refundedInFull' };
  if (payment.refundClaimedAt && payment.refundClaimedCents !== 0) {
    // The trial cancellation's refund of all that staff left is at the gateway (R4); once
    // answered the payment is refunded in full, or released.
    return { status: 'refundInFlight' };
  }
  const refunded = await staffRefundedCents(tx, paymentId, { inFlight: false });
  const inFlight = await staffRefundedCents(tx, paymentId, { inFlight: true });
  if (inFlight > refunded) return { status: 'refundInFlight' };
  const coveredCents = payment.amountCents - refunded;
  if (coveredCents <= 0) return { status: 'refundedInFull' };
  await tx.update(payments).set({ chargedBackAt: now }).where(eq(payments.id, paymentId));
  // The card network took the period's money back, so the period was never paid: like a trial
  // refund's, it leaves the one-period-per-start-date rule (BILLED_PERIOD), and a reactivation
  // the same day opens its own period from that date (issue 25: a chargeback recorded on the day
  // of the payment made every reactivation that day fail). A change's charge is not a period.
  await tx
    .update(billingPeriods)
    .set({ status: 'refunded' })
    .where(and(eq(billingPeriods.id, payment.billingPeriodId), ne(billingPeriods.kind, 'change')));
  await addBalanceEntries(
    tx,
    [
      {
        userId: user.id,
        kind: 'fee',
        amountCents: CHARGEBACK_FEE_CENTS,
        source: `chargeback:${paymentId}`,
      },
    ],
    now,
  );
  await tx
    .update(subscriptions)
    .set({ nextRetryAt: null, updatedAt: now })
    .where(eq(subscriptions.userId, user.id));
  await tx.insert(accountEvents).values({
    userId: user.id,
    event: 'chargeback',
    actor,
    at: now,
    details: {
      ...input.details,
      paymentId,
      feeCents: CHARGEBACK_FEE_CENTS,
      refundedCents: refunded,
      chargedBackCents: coveredCents,
    },
  });
  if (user.accountStatus !== ACCOUNT_STATUS.inactive) {
    await changeAccountStatus(tx, {
      userId: user.id,
      from: user.accountStatus,
      event: 'chargeback',
      note: `chargeback of payment ${paymentId}`,
      actor,
      now,
      ...(input.details ? { details: input.details } : {}),
    });
  }
  return { status: 'recorded', coveredCents };
}
