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
 * Whether the month `day` falls in is billed (decision 060): a sign-up, renewal or reactivation
 * period covering it that was paid, or a renewal declined to R4's last retry (its amount stays in
 * the balance). A reactivation before a paid year then charges only the balance. A month never
 * billed (the account was inactive at its bill date) or charged back (its period no longer billed,
 * decision 034: the money went back, only the fee is owed) is charged as R4 says.
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
          or (${billingPeriods.status} = 'failed' and ${billingPeriods.kind} = 'renewal'))`,
      ),
    )
    .limit(1);
  return billed !== undefined;
}
