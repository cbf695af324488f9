/** The sign-up order summary (001 §2; DECISIONS R4: it shows the real first renewal date). */
import { formatCurrency } from '../money.ts';
import type { TCents } from '../money.ts';
import { calendarDateIn, formatCalendarDate } from '../time/calendar-date.ts';
import { billDateOfCycle } from './renewal-calendar.ts';

/** The local-storage key the browser keeps the display total under (001 §2, R3). */
export const SUBTOTAL_STORAGE_KEY = 'sub_total';

/** 'Your next charge will be $X (plus tax if applicable) on {date}. Cancel or Adjust anytime' */
export function orderSummaryText(totalCents: TCents, now: Date, timeZone: string): string {
  const firstRenewal = billDateOfCycle(calendarDateIn(now, timeZone), 1);
  return `Your next charge will be ${formatCurrency(totalCents)} (plus tax if applicable) on ${formatCalendarDate(firstRenewal)}. Cancel or Adjust anytime`;
}

/** R4: the first monthly charge is taken at sign-up; the summary says so beside the next charge. */
export function firstChargeText(totalCents: TCents): string {
  return `Your first month, ${formatCurrency(totalCents)} (plus tax if applicable), is charged today.`;
}
