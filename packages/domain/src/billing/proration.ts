/**
 * Changing a subscription mid-period (DECISIONS R10): which codes are added and removed, what the
 * selection in force is, and the prorated charge for additions. Pure: the caller hands in the
 * instant, the business time zone and the price table (R11).
 */
import type { TSubscriptionCode } from '../catalogue.ts';
import type { TCents } from '../money.ts';
import { quote, type TPriceTable } from '../prices.ts';
import {
  deselectCode,
  knownCodes,
  sanitizeCodes,
  selectCode,
  type ISelection,
} from '../selection.ts';
import {
  calendarDateIn,
  compareDates,
  daysBetween,
  parseIsoDate,
  type ICalendarDate,
} from '../time/calendar-date.ts';

/**
 * `amount × numerator ÷ denominator` in whole cents, rounded half up (R10). Integer arithmetic
 * only: exact for any amount a subscription reaches.
 */
export function prorateCents(amountCents: TCents, numerator: number, denominator: number): TCents {
  if (denominator <= 0) throw new RangeError('a period has at least one day');
  const scaled = amountCents * numerator;
  return Math.floor((2 * scaled + denominator) / (2 * denominator));
}

export interface IProrationInput {
  /** The codes in force before the change (pending removals included: they still run). */
  currentCodes: readonly TSubscriptionCode[];
  /** The codes in force once the additions take effect. */
  newCodes: readonly TSubscriptionCode[];
  at: Date;
  timeZone: string;
  /** The current period's first day and the next bill date ('YYYY-MM-DD'). */
  periodStart: string;
  periodEnd: string;
  table: TPriceTable;
}

export interface IProration {
  currentMonthlyCents: TCents;
  newMonthlyCents: TCents;
  /** Calendar days from today (included) to the next bill date (excluded). */
  daysLeft: number;
  daysInPeriod: number;
  /** What is charged now: never below zero, nothing is refunded (R10). */
  chargeCents: TCents;
}

/**
 * R10: (new monthly total − current monthly total, both at the prices in force now) × (days left
 * in the period ÷ days in the period), rounded half up; zero or less charges nothing. Days are
 * business-zone calendar days, so a 23- or 25-hour day (DST) still counts as one.
 */
export function prorateChange(input: IProrationInput): IProration {
  const start = isoDate(input.periodStart);
  const end = isoDate(input.periodEnd);
  const today = clampDate(calendarDateIn(input.at, input.timeZone), start, end);
  const daysInPeriod = daysBetween(start, end);
  const daysLeft = daysBetween(today, end);
  const currentMonthlyCents = quote(input.currentCodes, input.at, input.table).totalCents;
  const newMonthlyCents = quote(input.newCodes, input.at, input.table).totalCents;
  const difference = newMonthlyCents - currentMonthlyCents;
  const chargeCents = difference > 0 ? prorateCents(difference, daysLeft, daysInPeriod) : 0;
  return { currentMonthlyCents, newMonthlyCents, daysLeft, daysInPeriod, chargeCents };
}

function isoDate(text: string): ICalendarDate {
  const date = parseIsoDate(text);
  if (!date) throw new RangeError(`not a date: ${text}`);
  return date;
}

function clampDate(date: ICalendarDate, min: ICalendarDate, max: ICalendarDate): ICalendarDate {
  if (compareDates(date, min) < 0) return min;
  if (compareDates(date, max) > 0) return max;
  return date;
}

export interface ISubscriptionChangePlan {
  /** Codes that take effect now (R10: additions at once). */
  added: TSubscriptionCode[];
  /** Codes that stop at the next bill date (R10: removals wait), pending until then. */
  removed: TSubscriptionCode[];
  /** What runs from now until the next bill date: the current codes plus the additions. */
  inForceNow: ISelection;
  /** What the next bill charges: the requested selection, with its automatic extras. */
  fromNextBill: ISelection;
}

/**
 * Plans a change from the current selection to the requested codes with the sign-up's rules
 * (R3): the requested codes are sanitized, then reached from the current selection by removals
 * then additions, so automatic extras come and go as they do on the sign-up page.
 */
export function planSubscriptionChange(
  current: ISelection,
  requested: readonly string[],
): ISubscriptionChangePlan {
  const target = sanitizeCodes(requested);
  let next: ISelection = {
    codes: sanitizeCodes(current.codes),
    autoExtras: current.autoExtras.filter((code) => current.codes.includes(code)),
  };
  for (const code of next.codes) if (!target.includes(code)) next = deselectCode(next, code);
  for (const code of target) if (!next.codes.includes(code)) next = selectCode(next, code);
  // The request names the codes; anything the rules would add beyond them is left out.
  const fromNextBill: ISelection = {
    codes: target,
    autoExtras: next.autoExtras.filter((code) => target.includes(code)),
  };
  const added = target.filter((code) => !current.codes.includes(code));
  const removed = current.codes.filter((code) => !target.includes(code));
  const nowCodes = sanitizeCodes([...current.codes, ...added]);
  const inForceNow: ISelection = {
    codes: nowCodes,
    // An extra the request keeps that is not automatic from the next bill (fewer than two paid
    // items are left) is chosen from now on: the removals at the bill date must not take it.
    autoExtras: [...new Set([...current.autoExtras, ...fromNextBill.autoExtras])].filter(
      (code) =>
        nowCodes.includes(code) &&
        (!target.includes(code) || fromNextBill.autoExtras.includes(code)),
    ),
  };
  return { added, removed, inForceNow, fromNextBill };
}

/**
 * Applies pending removals at the bill date (R10): the codes left, with a simulcast going with its
 * base, and the automatic extras that remain (dropped below two paid items: removed).
 */
export function applyPendingRemovals(
  current: ISelection,
  pendingRemovals: readonly string[],
): ISelection {
  let next: ISelection = { codes: sanitizeCodes(current.codes), autoExtras: current.autoExtras };
  for (const code of knownCodes(pendingRemovals)) next = deselectCode(next, code);
  return next;
}

/** R10: which changes an account's status allows (validating payment: removals only). */
export type TChangeAllowance = 'any' | 'removalsOnly' | 'none';

/** Who asks for a change: the dealer on their change page, or billing staff on their behalf. */
export type TChangeRequester = 'dealer' | 'staff';

/**
 * A complimentary account's selection is changed by Customer Support (the dealer's page says
 * so), on the same status rules, and nothing is charged for it (R4, issue 28's "Adjust").
 */
export function changeAllowance(
  status: string,
  complimentary: boolean,
  by: TChangeRequester = 'dealer',
): TChangeAllowance {
  if (complimentary && by === 'dealer') return 'none';
  if (status === 'active') return 'any';
  if (status === 'validating payment') return 'removalsOnly';
  return 'none';
}
