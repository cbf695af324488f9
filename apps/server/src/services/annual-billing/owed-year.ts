/**
 * A year owed after a returned check (R14, decisions 041 and 052): the check's year is opened
 * again as a due annual period, which the billing run charges to the card on file with R4's
 * attempts from the day of the return (claim-due-accounts.ts). What else follows it lives here:
 * the days the account counts as paid, the year paid by card, and the year closed when an
 * inactive account reactivates.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { addDays, parseIsoDate, toIsoDate } from '@dealerpass/domain/time/calendar-date';
import type { Transaction } from '../../db/client.ts';
import { billingPeriods, subscriptions } from '../../db/schema.ts';

const dayBefore = (date: string) => {
  const parsed = parseIsoDate(date);
  if (!parsed) throw new Error(`not a date: ${date}`);
  return toIsoDate(addDays(parsed, -1));
};

/**
 * The days paid by check once a year's check is returned: those before the year, if a year paid
 * earlier runs up to it (a renewal's check returned), else none. The year is no longer paid, so
 * the account is not shown as billed annually for it and gets no renewal invoice after it.
 */
export function annualDaysWithout(
  subscription: { annualPeriodStart: string | null },
  year: { periodStart: string },
): { annualPeriodStart: string | null; annualPeriodEnd: string | null } {
  const earlier =
    subscription.annualPeriodStart !== null && subscription.annualPeriodStart < year.periodStart;
  return earlier
    ? {
        annualPeriodStart: subscription.annualPeriodStart,
        annualPeriodEnd: dayBefore(year.periodStart),
      }
    : { annualPeriodStart: null, annualPeriodEnd: null };
}

/**
 * Inside the record of approved charges (its accounts locked): the owed years among the periods
 * just paid are the accounts' years again, paid by card, as a check would have paid them. A year
 * that has not started yet is not entered now: the account's monthly billing goes on to its start,
 * where the run passes it with no charge (`passPaidAnnualPeriods`), so only its dunning ends here.
 * Returns the periods the caller must not advance the account past.
 */
export async function settleYearsPaidByCard(
  tx: Transaction,
  periods: readonly {
    id: string;
    userId: string;
    kind: string;
    periodStart: string;
    periodEnd: string;
  }[],
  today: string,
  now: Date,
): Promise<Set<string>> {
  const ahead = new Set<string>();
  for (const period of periods) {
    if (period.kind !== 'annual') continue;
    const [subscription] = await tx
      .select({
        annualPeriodStart: subscriptions.annualPeriodStart,
        annualPeriodEnd: subscriptions.annualPeriodEnd,
      })
      .from(subscriptions)
      .where(eq(subscriptions.userId, period.userId));
    const continues =
      subscription?.annualPeriodStart != null &&
      subscription.annualPeriodEnd === dayBefore(period.periodStart);
    const notStarted = period.periodStart > today;
    if (notStarted) ahead.add(period.id);
    await tx
      .update(subscriptions)
      .set({
        annualPeriodStart: continues ? subscription.annualPeriodStart : period.periodStart,
        annualPeriodEnd: dayBefore(period.periodEnd),
        // Advancing the account resets its dunning; a year still ahead ends it here.
        ...(notStarted ? { failedAttempts: 0, nextRetryAt: null } : {}),
        updatedAt: now,
      })
      .where(eq(subscriptions.userId, period.userId));
  }
  return ahead;
}

/**
 * When an inactive account reactivates (its account locked): a year still owed, or failed at its
 * last attempt, is closed. Its amount stays in the balance, which the reactivation charges (R4),
 * so it must not be charged again, and its first day must not hold a bill date of the new cycle:
 * it is marked `refunded`, the status of a period no longer billed (BILLED_PERIOD).
 */
export async function closeOwedYears(tx: Transaction, userId: string, now: Date): Promise<void> {
  await tx
    .update(billingPeriods)
    .set({ status: 'refunded', settledAt: now })
    .where(
      and(
        eq(billingPeriods.userId, userId),
        eq(billingPeriods.kind, 'annual'),
        inArray(billingPeriods.status, ['due', 'failed']),
      ),
    );
}
