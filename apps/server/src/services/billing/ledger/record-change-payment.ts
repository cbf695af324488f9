import { eq } from 'drizzle-orm';
import { calendarDateIn, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Transaction } from '../../../db/client.ts';
import { billingPeriods, payments, users } from '../../../db/schema.ts';
import { enqueueMail } from '../../mail/enqueue-mail.ts';
import { addBalanceEntries, paidPeriodEntries } from '../account-balance.ts';
import type { BillingDeps, ClaimedRenewal } from './billing-deps.ts';
import { paymentRecord } from './payment-record.ts';

/**
 * Records an approved prorated charge of a subscription change (R10): one payment row with its
 * receipt (the prorated line and its period) and e-mail, the charge and the payment in the
 * balance, the change period paid. Unlike a renewal it moves no period and no status. Returns the
 * payment's id; a period already paid (a repeat after a crash) returns the payment it has.
 */
export async function recordChangePayment(
  tx: Transaction,
  deps: BillingDeps,
  charge: ClaimedRenewal,
  transactionId: string,
  now: Date,
): Promise<string> {
  const [period] = await tx
    .select()
    .from(billingPeriods)
    .where(eq(billingPeriods.id, charge.periodId))
    .for('update');
  const [user] = await tx.select().from(users).where(eq(users.id, charge.userId));
  if (!period || !user || period.kind !== 'change') throw new Error('change period vanished');
  if (period.status === 'paid') {
    const [paid] = await tx
      .select({ id: payments.id })
      .from(payments)
      .where(eq(payments.billingPeriodId, period.id));
    if (!paid) throw new Error('paid change period without its payment');
    return paid.id;
  }
  const { row, mail } = paymentRecord({
    company: deps.company,
    user,
    period,
    card: {
      brand: charge.cardBrand ?? user.cardBrand,
      last4: charge.cardLast4 ?? user.cardLast4,
    },
    transactionId,
    activationDate: toIsoDate(calendarDateIn(now, deps.timeZone)),
    now,
  });
  await tx.insert(payments).values(row);
  await addBalanceEntries(
    tx,
    paidPeriodEntries(period, { id: row.id!, amountCents: row.amountCents }),
    now,
  );
  await tx
    .update(billingPeriods)
    .set({ status: 'paid', settledAt: now })
    .where(eq(billingPeriods.id, period.id));
  await enqueueMail(tx, mail, deps.mailKind);
  return row.id!;
}
