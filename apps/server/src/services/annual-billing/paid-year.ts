/**
 * The years an account has paid (R14: by check, or by card after a returned check), as the
 * reactivation and the billing run of a pending cancellation need them (decisions 058, 060).
 */
import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Transaction } from '../../db/client.ts';
import { billingPeriods } from '../../db/schema.ts';

export interface PaidYear {
  id: string;
  periodStart: string;
  /** The bill date after its last day. */
  periodEnd: string;
}

const PAID_YEAR = (userId: string) =>
  and(
    eq(billingPeriods.userId, userId),
    eq(billingPeriods.kind, 'annual'),
    eq(billingPeriods.status, 'paid'),
  );

const FIELDS = {
  id: billingPeriods.id,
  periodStart: billingPeriods.periodStart,
  periodEnd: billingPeriods.periodEnd,
};

/**
 * The paid year running on `day` (its first day on or before it, its end after it), if any. A
 * year whose payment was charged back is no longer paid (its period `refunded`), so it is none.
 */
export async function paidYearOn(
  tx: Transaction,
  userId: string,
  day: string,
): Promise<PaidYear | null> {
  const [year] = await tx
    .select(FIELDS)
    .from(billingPeriods)
    .where(
      and(
        PAID_YEAR(userId),
        lte(billingPeriods.periodStart, day),
        gt(billingPeriods.periodEnd, day),
      ),
    )
    .orderBy(asc(billingPeriods.periodStart))
    .limit(1);
  return year ?? null;
}

/** The first paid year starting after `day` (a year paid that has not begun), if any. */
export async function paidYearAfter(
  tx: Transaction,
  userId: string,
  day: string,
): Promise<PaidYear | null> {
  const [year] = await tx
    .select(FIELDS)
    .from(billingPeriods)
    .where(and(PAID_YEAR(userId), gt(billingPeriods.periodStart, day)))
    .orderBy(asc(billingPeriods.periodStart))
    .limit(1);
  return year ?? null;
}

/**
 * Whether the month `day` falls in was billed (decision 060): a sign-up, renewal or reactivation
 * period covering it that was paid, declined to the end (its amount in the balance), or charged
 * back (its amount owed again in the balance). A reactivation before a paid year then charges
 * only the balance; a month never billed (the account was inactive at its bill date) is R4's.
 */
export async function monthBilledOn(
  tx: Transaction,
  userId: string,
  day: string,
): Promise<boolean> {
  const [billed] = await tx
    .select({ id: billingPeriods.id })
    .from(billingPeriods)
    .where(
      and(
        eq(billingPeriods.userId, userId),
        sql`${billingPeriods.kind} in ('signup', 'renewal', 'reactivation')`,
        lte(billingPeriods.periodStart, day),
        gt(billingPeriods.periodEnd, day),
        sql`(${billingPeriods.status} = 'paid'
          or (${billingPeriods.status} = 'failed' and ${billingPeriods.kind} = 'renewal')
          or exists (
          select 1 from payments p
          where p.billing_period_id = ${billingPeriods.id} and p.charged_back_at is not null))`,
      ),
    )
    .limit(1);
  return billed !== undefined;
}
