/**
 * Annual payment by check with the 10 % discount (DECISIONS R14): who may ask, when the annual
 * period starts and ends, what the invoice asks, the prorated charge of an addition during the
 * period, and the invoice's number. Built on R4's renewal calendar, R3's quote and R10's
 * proration; pure, the caller hands in the instant, the time zone and the price table.
 */
import type { TSubscriptionCode } from '../catalogue.ts';
import type { TCents } from '../money.ts';
import { quote, type TPriceTable } from '../prices.ts';
import {
  addDays,
  addMonthsClamped,
  calendarDateIn,
  compareDates,
  daysBetween,
  parseIsoDate,
  startOfDayIn,
  toIsoDate,
  type ICalendarDate,
} from '../time/calendar-date.ts';
import { ACCOUNT_STATUS } from '../account/status.ts';
import { sanitizeCodes } from '../selection.ts';
import { billDateOfCycle, cycleIndexOn } from './renewal-calendar.ts';
import { applyPendingRemovals, prorateCents } from './proration.ts';

/** R14: the period starts at the first bill date at least this many days after the request. */
export const ANNUAL_NOTICE_DAYS = 30;
/** R14: the renewal invoice is issued this many days before the period ends. */
export const ANNUAL_RENEWAL_INVOICE_DAYS = 45;
export const ANNUAL_MONTHS = 12;
/** R14: 10 % off, i.e. 90 % of the year's total. */
export const ANNUAL_DISCOUNT_PERCENT = 10;

export const ANNUAL_INELIGIBLE_MESSAGES = {
  notActive: 'Annual billing by check is available to active accounts only.',
  complimentary: 'Complimentary accounts are not billed.',
  validatingPayment:
    'Annual billing by check is available once your card payment has gone through.',
  pendingCancel: 'Your subscription is set to end. Reactivate it first to pay annually.',
  annual: 'Your account is already billed annually by check.',
  openInvoice: 'An invoice for annual billing is already open.',
  noSubscription: 'Choose your subscriptions first to pay annually.',
} as const;

export interface IAnnualEligibilityInput {
  status: string;
  complimentary: boolean;
  /** Whether a paid annual period covers today or starts later. */
  onAnnualPeriod: boolean;
  hasOpenInvoice: boolean;
  /** Monthly total of the selection now (0: nothing to bill). */
  monthlyTotalCents: TCents;
}

/**
 * R14's "who": an active account billed monthly, not complimentary, not validating payment, not
 * pending cancel. Null when eligible, else the reason shown to the dealer and staff.
 */
export function annualIneligibleReason(input: IAnnualEligibilityInput): string | null {
  const M = ANNUAL_INELIGIBLE_MESSAGES;
  if (input.complimentary) return M.complimentary;
  if (input.status === ACCOUNT_STATUS.validatingPayment) return M.validatingPayment;
  if (input.status === ACCOUNT_STATUS.pendingCancel) return M.pendingCancel;
  if (input.status !== ACCOUNT_STATUS.active) return M.notActive;
  if (input.onAnnualPeriod) return M.annual;
  if (input.hasOpenInvoice) return M.openInvoice;
  if (input.monthlyTotalCents <= 0) return M.noSubscription;
  return null;
}

export interface IAnnualPeriodDates {
  /** The first day of the annual period (a bill date of the account's cycle). */
  start: string;
  /** The last day paid ("paid through"). */
  end: string;
  /** The bill date after the period: the next period (annual or monthly) starts here. */
  nextStart: string;
}

function isoDate(text: string): ICalendarDate {
  const date = parseIsoDate(text);
  if (!date) throw new RangeError(`not a date: ${text}`);
  return date;
}

/** The 12-month period that starts at cycle `n` of the anchor (same day of month, clamped, R4). */
function periodAtCycle(anchor: ICalendarDate, n: number): IAnnualPeriodDates {
  const start = billDateOfCycle(anchor, n);
  const nextStart = billDateOfCycle(anchor, n + ANNUAL_MONTHS);
  return {
    start: toIsoDate(start),
    end: toIsoDate(addDays(nextStart, -1)),
    nextStart: toIsoDate(nextStart),
  };
}

/**
 * R14's "when": the first bill date of the account's cycle at least 30 days after the request's
 * business date, and 12 months from it.
 */
export function annualPeriodFor(cycleAnchor: string, requestedOn: string): IAnnualPeriodDates {
  const anchor = isoDate(cycleAnchor);
  const earliest = addDays(isoDate(requestedOn), ANNUAL_NOTICE_DAYS);
  let n = Math.max(0, cycleIndexOn(anchor, earliest));
  while (compareDates(billDateOfCycle(anchor, n), earliest) < 0) n += 1;
  return periodAtCycle(anchor, n);
}

/** The annual period that follows one ending the day before `nextStart` (R14 renewal). */
export function nextAnnualPeriod(cycleAnchor: string, nextStart: string): IAnnualPeriodDates {
  const anchor = isoDate(cycleAnchor);
  const start = isoDate(nextStart);
  const n = cycleIndexOn(anchor, start);
  if (n < 0 || compareDates(billDateOfCycle(anchor, n), start) !== 0) {
    throw new RangeError(`${nextStart} is not a bill date of the cycle anchored ${cycleAnchor}`);
  }
  return periodAtCycle(anchor, n);
}

/** R14: the renewal invoice's issue date, 45 days before the period's end (its next start). */
export function renewalInvoiceDate(nextStart: string): string {
  return toIsoDate(addDays(isoDate(nextStart), -ANNUAL_RENEWAL_INVOICE_DAYS));
}

/** What an account's selection is made of, as stored (R3's automatic extras, R10's removals). */
export interface IStoredSelection {
  codes: readonly string[];
  autoExtras: readonly string[];
  pendingRemovals: readonly string[];
  /** The bill date the pending removals take effect on, 'YYYY-MM-DD'. */
  pendingRemovalsAt: string | null;
}

/**
 * The selection an annual period bills (R14 with R10): the one in force at its start, so the
 * removals pending until then are out of it (R10: the next bill charges the selection in force
 * that day). Invoices, the offer and their replacements all price this one.
 */
export function selectionAtStart(
  selection: IStoredSelection,
  periodStart: string,
): TSubscriptionCode[] {
  const current = {
    codes: sanitizeCodes(selection.codes),
    autoExtras: sanitizeCodes(selection.autoExtras),
  };
  const takesEffect =
    selection.pendingRemovals.length > 0 &&
    (selection.pendingRemovalsAt === null || selection.pendingRemovalsAt <= periodStart);
  return [
    ...(takesEffect ? applyPendingRemovals(current, selection.pendingRemovals) : current).codes,
  ];
}

/**
 * The first annual period starting on or after `date` in a chain of years that starts at
 * `start` (a bill date of the cycle): when a price change that takes effect on `date` is first
 * billed to an account that keeps paying annually (R11 with R14).
 */
export function firstAnnualStartOnOrAfter(
  cycleAnchor: string,
  start: string,
  date: string,
): string {
  const anchor = isoDate(cycleAnchor);
  const first = isoDate(start);
  const n = cycleIndexOn(anchor, first);
  // A start off the cycle (the cycle began again since) counts its years from itself.
  const onCycle = n >= 0 && compareDates(billDateOfCycle(anchor, n), first) === 0;
  for (let years = 0; ; years += 1) {
    const next = toIsoDate(
      onCycle
        ? billDateOfCycle(anchor, n + years * ANNUAL_MONTHS)
        : addMonthsClamped(first, years * ANNUAL_MONTHS, first.day),
    );
    if (next >= date) return next;
  }
}

/** The year's total less the discount: 90 %, rounded half up to the cent. */
export function discountedCents(yearTotalCents: TCents): TCents {
  return prorateCents(yearTotalCents, 100 - ANNUAL_DISCOUNT_PERCENT, 100);
}

export interface IAnnualInvoiceLine {
  label: string;
  amountCents: TCents;
}

export interface IAnnualQuote {
  monthlyTotalCents: TCents;
  /** 12 × the monthly total. */
  yearTotalCents: TCents;
  discountCents: TCents;
  totalCents: TCents;
  /** One per item (× 12; a free extra at 0), then the platform fee (× 12). */
  lines: IAnnualInvoiceLine[];
  /** The instant the prices were read at: the period start's midnight in the business zone. */
  pricedAt: string;
}

/**
 * R14's "how much": 12 × the monthly total (R3's rules, fee included) at the prices in force at
 * the period's start (a change scheduled under R11 before that date applies), × 90 %, half up.
 */
export function annualQuote(
  codes: readonly TSubscriptionCode[],
  periodStart: string,
  timeZone: string,
  table: TPriceTable,
): IAnnualQuote {
  const at = startOfDayIn(isoDate(periodStart), timeZone);
  const monthly = quote(codes, at, table);
  const lines: IAnnualInvoiceLine[] = monthly.lines.map((line) => ({
    label: `${line.name}${line.free ? ' (included)' : ''} × ${ANNUAL_MONTHS}`,
    amountCents: line.cents * ANNUAL_MONTHS,
  }));
  if (monthly.platformFeeCents > 0) {
    lines.push({
      label: `Platform fee × ${ANNUAL_MONTHS}`,
      amountCents: monthly.platformFeeCents * ANNUAL_MONTHS,
    });
  }
  const yearTotalCents = monthly.totalCents * ANNUAL_MONTHS;
  const totalCents = discountedCents(yearTotalCents);
  return {
    monthlyTotalCents: monthly.totalCents,
    yearTotalCents,
    discountCents: yearTotalCents - totalCents,
    totalCents,
    lines,
    pricedAt: at.toISOString(),
  };
}

export interface IAnnualProration {
  currentAnnualCents: TCents;
  newAnnualCents: TCents;
  daysLeft: number;
  daysInPeriod: number;
  chargeCents: TCents;
}

/**
 * R14 "during an annual period": an addition is charged at once, R10's formula on annual amounts
 * with the discount: (new discounted year − current discounted year, both at the prices in force
 * now) × (days left in the annual period ÷ its days), half up; zero or less charges nothing.
 * `nextStart` is the day after the period's last day.
 */
export function prorateAnnualAddition(input: {
  currentCodes: readonly TSubscriptionCode[];
  newCodes: readonly TSubscriptionCode[];
  at: Date;
  timeZone: string;
  periodStart: string;
  nextStart: string;
  table: TPriceTable;
}): IAnnualProration {
  const start = isoDate(input.periodStart);
  const end = isoDate(input.nextStart);
  let today = calendarDateIn(input.at, input.timeZone);
  if (compareDates(today, start) < 0) today = start;
  if (compareDates(today, end) > 0) today = end;
  const daysInPeriod = daysBetween(start, end);
  const daysLeft = daysBetween(today, end);
  const yearAt = (codes: readonly TSubscriptionCode[]) =>
    discountedCents(quote(codes, input.at, input.table).totalCents * ANNUAL_MONTHS);
  const currentAnnualCents = yearAt(input.currentCodes);
  const newAnnualCents = yearAt(input.newCodes);
  const difference = newAnnualCents - currentAnnualCents;
  const chargeCents = difference > 0 ? prorateCents(difference, daysLeft, daysInPeriod) : 0;
  return { currentAnnualCents, newAnnualCents, daysLeft, daysInPeriod, chargeCents };
}

/** Invoice numbers `{prefix}-{year}-{6 digits}` (R14): the year of issue, the prefix's counter. */
export function formatInvoiceNumber(prefix: string, year: number, sequence: number): string {
  if (!Number.isInteger(sequence) || sequence < 1 || sequence > 999_999) {
    throw new RangeError(`invoice sequence out of range: ${sequence}`);
  }
  return `${prefix}-${String(year).padStart(4, '0')}-${String(sequence).padStart(6, '0')}`;
}

/**
 * Whether an open invoice's due date has come on `today` (both 'YYYY-MM-DD'). R14: paid by the due
 * date means recorded before it begins, when the annual period would start; from then the invoice
 * is voided (the job) and, until the job has run, the console shows it overdue.
 */
export function isInvoiceOverdue(dueOn: string, today: string): boolean {
  return today >= dueOn;
}

/**
 * What a dealer does about an invoice a new one replaced (decision 052): a check is recorded only
 * for the amount the open invoice asks, so a check already sent for the old one needs a call.
 */
export function replacedInvoiceAdvice(oldNumber: string, supportPhone: string): string {
  return `Please do not pay invoice ${oldNumber}. If you have already sent a check for it, call us at ${supportPhone}: a check is recorded only for the amount of the open invoice.`;
}
