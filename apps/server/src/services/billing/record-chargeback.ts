import { and, eq, ne } from 'drizzle-orm';
import { CHARGEBACK_FEE_CENTS } from '@dealerpass/domain/billing/renewal-calendar';
import type { Database, Transaction } from '../../db/client.ts';
import { accountEvents, billingPeriods, payments, subscriptions, users } from '../../db/schema.ts';
import { addBalanceEntries } from './account-balance.ts';
import { changeAccountStatus } from './ledger/change-account-status.ts';

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
  return db.transaction((tx) => recordChargebackIn(tx, { ...input, actor: 'gateway' }));
}

/**
 * The same inside the caller's transaction, for a chargeback staff record from the operator
 * console with its audit row (R12): `actor` and `details` name who recorded it.
 */
export async function recordChargebackIn(
  tx: Transaction,
  input: { paymentId: string; now: Date; actor: string; details?: Record<string, unknown> },
): Promise<boolean> {
  const { paymentId, now, actor } = input;
  const [owner] = await tx
    .select({ userId: payments.userId })
    .from(payments)
    .where(eq(payments.id, paymentId));
  if (!owner) throw new Error(`no payment ${paymentId}`);
  // The account, then the payment: the order every chargeback takes its locks in. The payment's
  // lock is the one a staff refund reads what is left under, so the two never both return it.
  const [user] = await tx.select().from(users).where(eq(users.id, owner.userId)).for('update');
  if (!user) throw new Error('user vanished');
  const [payment] = await tx
    .select({ chargedBackAt: payments.chargedBackAt, billingPeriodId: payments.billingPeriodId })
    .from(payments)
    .where(eq(payments.id, paymentId))
    .for('update');
  if (!payment) throw new Error(`no payment ${paymentId}`);
  if (payment.chargedBackAt) return false;
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
    details: { ...input.details, paymentId, feeCents: CHARGEBACK_FEE_CENTS },
  });
  if (user.accountStatus !== 'inactive') {
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
  return true;
}
