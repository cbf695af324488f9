/**
 * The figures of an account whose renewal is unpaid (R4's dunning), each computed once here so
 * the dealer's pages and the operator console say the same (issue 25: four dates and two attempt
 * counts for one account): the next bill date, the next scheduled retry, the scheduled attempts
 * made and those left. A staff retry (R16) is an attempt outside the schedule: it is none of
 * these.
 */
import { addDays, compareDates, DAY_MS, type ICalendarDate } from '../time/calendar-date.ts';
import { nextBillDate, PAYMENT_RETRY_DAYS } from './renewal-calendar.ts';

/** R4's schedule for one renewal: its own attempt on the bill date, then a retry 1, 3 and 5 days later. */
export const SCHEDULED_RENEWAL_ATTEMPTS = 1 + PAYMENT_RETRY_DAYS.length;

/**
 * The next bill date (000 §4 Next Billing Cycle, R10's "next bill"): the end of the current
 * period while it is ahead; once it has come and its renewal is still unpaid (validating payment,
 * or a bill date the run has not reached yet), the bill date after it, since that renewal is
 * owed for the period that has begun.
 */
export function nextBillDateOf(
  subscription: { cycleAnchor: ICalendarDate; currentPeriodEnd: ICalendarDate },
  today: ICalendarDate,
): ICalendarDate {
  if (compareDates(subscription.currentPeriodEnd, today) > 0) return subscription.currentPeriodEnd;
  return nextBillDate(subscription.cycleAnchor, subscription.currentPeriodEnd);
}

/**
 * The next bill date every screen shows (000 §4 "Next Billing Cycle", the change page's next
 * bill, the console's): the subscription's by {@link nextBillDateOf}; an inactive account (whose
 * cycle has ended, R4) or one without a subscription keeps the date stored with it.
 */
export function accountNextBillDate(
  account: {
    accountStatus: string;
    cycle: { cycleAnchor: ICalendarDate; currentPeriodEnd: ICalendarDate } | null;
    storedNextBillDate: ICalendarDate | null;
  },
  today: ICalendarDate,
): ICalendarDate | null {
  if (account.accountStatus === 'inactive' || !account.cycle) return account.storedNextBillDate;
  return nextBillDateOf(account.cycle, today);
}

/**
 * The day a pending cancellation takes effect (R4, R14 as ruled in decision 058): the next bill
 * date ({@link accountNextBillDate}), unless a paid year ends after it: then the bill date after
 * the year's last day (`paidThrough`), since a cancellation takes effect at the paid period's
 * end. Null for an account that is not pending cancel.
 */
export function cancellationTakesEffect(
  account: Parameters<typeof accountNextBillDate>[0] & { paidThrough: ICalendarDate | null },
  today: ICalendarDate,
): ICalendarDate | null {
  if (account.accountStatus !== 'pending cancel') return null;
  const next = accountNextBillDate(account, today);
  if (next && account.paidThrough && compareDates(account.paidThrough, next) >= 0) {
    return addDays(account.paidThrough, 1);
  }
  return next;
}

/**
 * R4's scheduled attempts on the unpaid renewal: made (the renewal's own and the retries that
 * failed) and left. `failedAttempts` is what the billing run counts; only its scheduled attempts
 * count (R16).
 */
export function scheduledAttempts(failedAttempts: number): { made: number; left: number } {
  const made = Math.min(Math.max(0, failedAttempts), SCHEDULED_RENEWAL_ATTEMPTS);
  return { made, left: SCHEDULED_RENEWAL_ATTEMPTS - made };
}

/**
 * When the schedule tries the card again: only while the account is validating payment and an
 * attempt is left (the run's `nextRetryAt` otherwise is a charge's lease, or nothing).
 */
export function nextScheduledRetry(
  accountStatus: string,
  failedAttempts: number,
  nextRetryAt: Date | null,
): Date | null {
  if (accountStatus !== 'validating payment') return null;
  if (scheduledAttempts(failedAttempts).left === 0) return null;
  return nextRetryAt;
}

/**
 * R4's next scheduled attempt once `failures` attempts have failed (the renewal's own, or the
 * returned check of R14, counted as the first): 1, 3 and 5 days after the first failure, at
 * `since`; null when none is left. A retry that ran late does not move the ones after it.
 */
export function scheduledRetryAt(since: Date, failures: number): Date | null {
  const days = PAYMENT_RETRY_DAYS[failures - 1];
  if (days === undefined || failures < 1) return null;
  return new Date(since.getTime() + days * DAY_MS);
}
