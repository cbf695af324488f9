/**
 * The renewal calendar (DECISIONS R4): the first charge at sign-up, renewals on the same day
 * of each following month clamped to the month's last day, all in the business time zone.
 */
import {
  DAY_MS,
  addDays,
  addMonthsClamped,
  calendarDateIn,
  compareDates,
  formatCalendarDate,
  startOfDayIn,
  toIsoDate,
} from '../time/calendar-date.ts';
import type { ICalendarDate } from '../time/calendar-date.ts';

/** R4 trial: cancelling within 10 days of the sign-up charge refunds it. */
export const TRIAL_DAYS = 10;
/** R4: a failed renewal is retried 1, 3 and 5 days later. */
export const PAYMENT_RETRY_DAYS = [1, 3, 5] as const;
/** R4, 001 §1: the chargeback reactivation fee. */
export const CHARGEBACK_FEE_CENTS = 2500;

/**
 * The bill date of cycle `n` for an account whose cycle starts on `anchor` (n = 0 is the
 * anchor itself). Computed from the anchor every time, so Jan 31 → Feb 28 → Mar 31.
 */
export function billDateOfCycle(anchor: ICalendarDate, n: number): ICalendarDate {
  return addMonthsClamped(anchor, n, anchor.day);
}

/** The cycle a business date falls in: the largest n whose bill date is on or before it. */
export function cycleIndexOn(anchor: ICalendarDate, today: ICalendarDate): number {
  if (compareDates(today, anchor) < 0) return -1;
  let n = (today.year - anchor.year) * 12 + (today.month - anchor.month);
  while (n > 0 && compareDates(billDateOfCycle(anchor, n), today) > 0) n -= 1;
  return n;
}

/** The next bill date strictly after `today` (000 §4 Next Billing Cycle). */
export function nextBillDate(anchor: ICalendarDate, today: ICalendarDate): ICalendarDate {
  return billDateOfCycle(anchor, cycleIndexOn(anchor, today) + 1);
}

/** The same, from an instant read in the business time zone. */
export function nextBillDateAt(anchor: ICalendarDate, now: Date, timeZone: string): ICalendarDate {
  return nextBillDate(anchor, calendarDateIn(now, timeZone));
}

/**
 * The key of the period a charge pays for: the cycle's bill date, 'YYYY-MM-DD'. The server's
 * uniqueness rule per account and period uses it, so a renewal is charged once (R4).
 */
export function periodKey(anchor: ICalendarDate, n: number): string {
  return toIsoDate(billDateOfCycle(anchor, n));
}

/** Whether a renewal is due on `today` for a cycle not yet charged (R4). */
export function renewalDue(
  anchor: ICalendarDate,
  today: ICalendarDate,
  lastChargedCycle: number,
): { due: boolean; cycle: number } {
  const cycle = cycleIndexOn(anchor, today);
  return { due: cycle > lastChargedCycle, cycle };
}

/** The first instant the trial is over (R4): 10 days after the sign-up charge. */
export function trialEndsAt(signupChargeAt: Date): Date {
  return new Date(signupChargeAt.getTime() + TRIAL_DAYS * DAY_MS);
}

export function isWithinTrial(signupChargeAt: Date | null | undefined, now: Date): boolean {
  if (!signupChargeAt) return false;
  return (
    now.getTime() >= signupChargeAt.getTime() &&
    now.getTime() < trialEndsAt(signupChargeAt).getTime()
  );
}

/** R4: retry dates after a renewal failed on `failedOn`. */
export function paymentRetryDates(failedOn: ICalendarDate): ICalendarDate[] {
  return PAYMENT_RETRY_DAYS.map((days) => addDays(failedOn, days));
}

/** Whole days from today to a bill date in the business zone ("days remaining"). */
export function daysUntil(date: ICalendarDate, now: Date, timeZone: string): number {
  const today = calendarDateIn(now, timeZone);
  return Math.round(
    (Date.UTC(date.year, date.month - 1, date.day) -
      Date.UTC(today.year, today.month - 1, today.day)) /
      DAY_MS,
  );
}

/** When a bill date starts, as an instant (jobs compare instants). */
export function billDateStartsAt(date: ICalendarDate, timeZone: string): Date {
  return startOfDayIn(date, timeZone);
}

/** 'MMM DD, YYYY' or 'N/A' (000 §4). */
export function formatBillDate(date: ICalendarDate | null | undefined): string {
  return formatCalendarDate(date);
}
