/**
 * Card expiry reminders (issue 27 item 12, docs/decisions/044): 30 and 7 days before the card on
 * file stops working, an account that will be charged after that day is asked for a new card.
 */
import { ACCOUNT_STATUS } from '../account/status.ts';
import {
  addDays,
  addMonthsClamped,
  daysBetween,
  daysInMonth,
  type ICalendarDate,
} from '../time/calendar-date.ts';
import { EXPIRY_PATTERN, normalizeExpiry } from '../validation/expiry.ts';

/** Days before the card's last valid day at which a reminder is due, the earliest first. */
export const CARD_EXPIRY_THRESHOLDS = [30, 7] as const;
export type TCardExpiryThreshold = (typeof CARD_EXPIRY_THRESHOLDS)[number];

/**
 * The last day a card is valid: the last day of its expiry month (000 §5: "The end of that
 * month must be in the future"). Null for anything that is not MMYY.
 */
export function cardLastValidDay(expiration: string): ICalendarDate | null {
  const mmyy = normalizeExpiry(expiration);
  if (!EXPIRY_PATTERN.test(mmyy)) return null;
  const month = Number(mmyy.slice(0, 2));
  const year = 2000 + Number(mmyy.slice(2));
  return { year, month, day: daysInMonth(year, month) };
}

/**
 * The reminder due on `today` for a card, or null. A threshold is due from its day until the
 * card's last valid day: a job that missed a day still sends it the day after. When several are
 * due (a card added 5 days before it expires) only the nearest is, so nobody gets two at once.
 */
export function dueCardExpiryReminder(
  expiration: string,
  today: ICalendarDate,
): TCardExpiryThreshold | null {
  const lastDay = cardLastValidDay(expiration);
  if (!lastDay) return null;
  const daysLeft = daysBetween(today, lastDay);
  if (daysLeft < 0) return null; // expired already: the renewal's decline tells the dealer (R4)
  let due: TCardExpiryThreshold | null = null;
  for (const threshold of CARD_EXPIRY_THRESHOLDS) if (daysLeft <= threshold) due = threshold;
  return due;
}

/**
 * The expiry months (MMYY) a card can have to be due for a reminder on `today`: those whose last
 * day is 0 to 30 days ahead. The job asks the database for these cards only.
 */
export function expiryMonthsToRemind(today: ICalendarDate): string[] {
  const latest = addDays(today, Math.max(...CARD_EXPIRY_THRESHOLDS));
  const months: string[] = [];
  for (
    let month: ICalendarDate = { ...today, day: 1 };
    month.year * 12 + month.month <= latest.year * 12 + latest.month;
    month = addMonthsClamped(month, 1, 1)
  ) {
    months.push(
      `${String(month.month).padStart(2, '0')}${String(month.year % 100).padStart(2, '0')}`,
    );
  }
  return months;
}

/** What decides whether an account will be charged after a date. */
export interface IChargeStanding {
  status: string;
  complimentary: boolean;
  /** Whether it has a subscription billed monthly (a next bill date). */
  billed: boolean;
}

/**
 * Whether an account will be charged after its card's last valid day, so the card matters: an
 * active account (or one validating payment, whose retries and renewals go on, R4) that is
 * billed and not complimentary. A pending-cancel account takes no further charge (R4), an
 * inactive, blocked or complimentary one none either; a reactivation in flight is asked once it
 * is active, as the reminder stays due until the card's last day.
 */
export function isChargedAfterCardExpiry(account: IChargeStanding): boolean {
  if (!account.billed || account.complimentary) return false;
  return (
    account.status === ACCOUNT_STATUS.active || account.status === ACCOUNT_STATUS.validatingPayment
  );
}
