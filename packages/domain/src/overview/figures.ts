/**
 * The business figures of the operator console's overview (DECISIONS R18, issue 29): each one is
 * defined here once; the server's queries store or count what these functions decide, and the
 * tests and the finance exports read the same definitions.
 */
import type { TAccountEvent } from '../account/status-transitions.ts';
import { ACCOUNT_STATUS, type TAccountStatus } from '../account/status.ts';
import type { CATALOGUE_GROUPS } from '../catalogue.ts';
import { isExtraCode, type TSubscriptionCode } from '../catalogue.ts';
import type { TCents } from '../money.ts';
import type { TFinanceMovementKind } from '../admin/finance-export.ts';
import {
  addDays,
  compareDates,
  startOfDayIn,
  type ICalendarDate,
  parseIsoDate,
  toIsoDate,
} from '../time/calendar-date.ts';

/**
 * R18: the statuses whose accounts count in MRR and as paying. An account on an annual period
 * paid by check (R14) is one of these too once that status exists; it counts its annual amount
 * ÷ 12 (`mrrContributionCents`).
 */
export const PAYING_STATUSES: readonly TAccountStatus[] = [
  ACCOUNT_STATUS.active,
  ACCOUNT_STATUS.validatingPayment,
  ACCOUNT_STATUS.pendingCancel,
];

export function isPaying(status: string): boolean {
  return (PAYING_STATUSES as readonly string[]).includes(status);
}

/** How an account is billed: monthly by card, or (R14) a year at a time by check. */
export type TBillingCadence = 'monthly' | 'annual';

export interface IRecurringState {
  status: string;
  complimentary: boolean;
  /** The selection's monthly total (R3's rules at the prices in force at that instant). */
  monthlyCents: TCents;
  cadence?: TBillingCadence;
  /** R14: the annual period's amount, discount included, when `cadence` is annual. */
  annualCents?: TCents | null;
}

/**
 * R18: what one account adds to MRR at an instant: its monthly total while it is paying, its
 * annual amount ÷ 12 on an annual period (rounded half up to the cent), nothing when it is
 * complimentary (counted apart) or not paying.
 */
export function mrrContributionCents(state: IRecurringState): TCents {
  if (!isPaying(state.status) || state.complimentary) return 0;
  if (state.cadence === 'annual' && state.annualCents !== null && state.annualCents !== undefined)
    return Math.floor((state.annualCents + 6) / 12);
  return state.monthlyCents;
}

/** R18's movements of an account between two of its states. */
export const MOVEMENTS = [
  'new',
  'reactivated',
  'churned',
  'dunningEntered',
  'dunningRecovered',
] as const;
export type TMovement = (typeof MOVEMENTS)[number];

/** R18: why a paying account became inactive. */
export const CHURN_CAUSES = [
  'cancellation',
  'failedDunning',
  'chargeback',
  'trialCancellation',
] as const;
export type TChurnCause = (typeof CHURN_CAUSES)[number];

export const CHURN_CAUSE_LABELS: Record<TChurnCause, string> = {
  cancellation: 'Cancelled',
  failedDunning: 'Failed dunning',
  chargeback: 'Chargeback',
  trialCancellation: 'Cancelled in trial',
};

/** The cancellation reasons of 000 §3, in its order, and how the overview names them. */
export const CANCELLATION_REASON_LABELS: Readonly<Record<string, string>> = {
  'business-is-slow': 'Business is slow',
  'changing-vendor': 'Changing vendor',
  'closing-business': 'Closing business',
  'not-as-advertised': 'Not as advertised',
  'not-enough-data': 'Not enough data',
  'not-in-auto-industry-anymore': 'Not in the auto industry anymore',
  'temporary-suspension-service': 'Temporary suspension of service',
  'too-expensive': 'Too expensive',
  'no-longer-employed-at-dealership': 'No longer employed at dealership',
};

/** The status event that made a paying account inactive, as R18's churn cause. */
export function churnCauseOf(event: TAccountEvent | 'signUp' | null): TChurnCause {
  switch (event) {
    case 'cancelInTrial':
      return 'trialCancellation';
    case 'finalRetryFailed':
      return 'failedDunning';
    case 'chargeback':
      return 'chargeback';
    default:
      // The bill date of a pending cancel, or a cancellation with nothing billed.
      return 'cancellation';
  }
}

export interface IClassifiedChange {
  movement: TMovement | null;
  cause: TChurnCause | null;
}

/**
 * R18's reading of one status change of an account (`from` null: the account's first state, its
 * sign-up). New: the first state is paying (the first charge, or a month a promotion covers).
 * Reactivated: inactive (or its reactivation charge in flight) to active. Churned: paying to
 * inactive, with its cause. Dunning: entering validating payment, and leaving it for active.
 */
export function classifyChange(
  from: string | null,
  to: string,
  event: TAccountEvent | 'signUp' | null,
): IClassifiedChange {
  const none = { movement: null, cause: null };
  if (from === null) return isPaying(to) ? { movement: 'new', cause: null } : none;
  if (from === to) return none;
  if (to === ACCOUNT_STATUS.inactive)
    return isPaying(from) ? { movement: 'churned', cause: churnCauseOf(event) } : none;
  if (to === ACCOUNT_STATUS.validatingPayment) return { movement: 'dunningEntered', cause: null };
  if (to === ACCOUNT_STATUS.active) {
    if (from === ACCOUNT_STATUS.validatingPayment)
      return { movement: 'dunningRecovered', cause: null };
    if (from === ACCOUNT_STATUS.inactive || from === ACCOUNT_STATUS.pendingReactivation)
      return { movement: 'reactivated', cause: null };
  }
  return none;
}

/**
 * R18: dunning recovery of a period: of the accounts that entered validating payment in it, the
 * share that returned to active within R4's schedule (a percentage with one decimal), or null
 * when none entered.
 */
export function recoveryRatePercent(entered: number, recovered: number): number | null {
  if (entered === 0) return null;
  return Math.round((recovered / entered) * 1000) / 10;
}

/** One money movement of the ledger, by business date (R4's time zone). */
export interface IMoneyMovement {
  kind: TFinanceMovementKind;
  /** Always positive: a refund, a chargeback or a returned check takes its cents away. */
  cents: TCents;
  /** YYYY-MM-DD in the business time zone. */
  businessDate: string;
}

export interface IRevenue {
  paymentsCents: TCents;
  refundsCents: TCents;
  chargebacksCents: TCents;
  /** R14: checks that came back unpaid, taken away on the day they were returned (061). */
  returnedChecksCents: TCents;
  /** R18: approved payments minus refunds and chargebacks (and returned checks). */
  revenueCents: TCents;
}

export const ZERO_REVENUE: IRevenue = {
  paymentsCents: 0,
  refundsCents: 0,
  chargebacksCents: 0,
  returnedChecksCents: 0,
  revenueCents: 0,
};

/** Adds one movement to a revenue figure (R18's gross revenue). */
export function addToRevenue(
  revenue: IRevenue,
  movement: Pick<IMoneyMovement, 'kind' | 'cents'>,
): IRevenue {
  const next = { ...revenue };
  if (movement.kind === 'payment') next.paymentsCents += movement.cents;
  else if (movement.kind === 'refund') next.refundsCents += movement.cents;
  else if (movement.kind === 'chargeback') next.chargebacksCents += movement.cents;
  else next.returnedChecksCents += movement.cents;
  next.revenueCents =
    next.paymentsCents - next.refundsCents - next.chargebacksCents - next.returnedChecksCents;
  return next;
}

/** R18: gross revenue of the business dates from `from` to `to`, both included (YYYY-MM-DD). */
export function grossRevenue(
  movements: readonly IMoneyMovement[],
  from: string,
  to: string,
): IRevenue {
  return movements
    .filter((movement) => movement.businessDate >= from && movement.businessDate <= to)
    .reduce(addToRevenue, ZERO_REVENUE);
}

/** The overview's product groups (000 §3's catalogue), the platform fee as a group of its own. */
export type TRevenueGroup = (typeof CATALOGUE_GROUPS)[number] | 'Platform fee';

/** An item line's group: a simulcast belongs to its base's group. */
export function revenueGroupOf(code: TSubscriptionCode | 'PLATFORM_FEE'): TRevenueGroup {
  if (code === 'PLATFORM_FEE') return 'Platform fee';
  if (isExtraCode(code)) return 'Extras';
  const base = code.replace(/_S$/, '');
  return ['APG', 'NADA', 'GALVES', 'BBK', 'KBB'].includes(base)
    ? 'Pricing Guides'
    : 'Market Reports';
}

/** A month of the overview: `YYYY-MM`. */
export type TMonth = string;

export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** The months from `from` to `to`, both included, in order. */
export function monthsBetween(from: TMonth, to: TMonth): TMonth[] {
  const months: TMonth[] = [];
  let [year, month] = from.split('-').map(Number) as [number, number];
  const [toYear, toMonth] = to.split('-').map(Number) as [number, number];
  while (year < toYear || (year === toYear && month <= toMonth)) {
    months.push(`${year}-${String(month).padStart(2, '0')}`);
    month += 1;
    if (month === 13) {
      month = 1;
      year += 1;
    }
  }
  return months;
}

/** The longest period the overview answers: two years of months. */
export const MAX_OVERVIEW_MONTHS = 24;

/** The first and last business dates of a month. */
export function monthDates(month: TMonth): { first: ICalendarDate; last: ICalendarDate } {
  const first = parseIsoDate(`${month}-01`);
  if (!first) throw new RangeError(`not a month: ${month}`);
  const nextFirst =
    first.month === 12
      ? { year: first.year + 1, month: 1, day: 1 }
      : { year: first.year, month: first.month + 1, day: 1 };
  return { first, last: addDays(nextFirst, -1) };
}

/**
 * The instant a month's figures are taken at (MRR "at each month's end"): midnight in the
 * business time zone that starts the next month, or `now` for a month not over yet.
 */
export function monthEndInstant(month: TMonth, timeZone: string, now: Date): Date {
  const { last } = monthDates(month);
  const end = startOfDayIn(addDays(last, 1), timeZone);
  return end.getTime() > now.getTime() ? now : end;
}

/** The business dates a period of months covers, as YYYY-MM-DD, both included. */
export function periodDates(from: TMonth, to: TMonth): { from: string; to: string } {
  return { from: toIsoDate(monthDates(from).first), to: toIsoDate(monthDates(to).last) };
}

/** The month of a business date. */
export function monthOf(businessDate: string): TMonth {
  return businessDate.slice(0, 7);
}

/** The period picker's choices (issue 29): this month, the last 12 months, or a custom range. */
export function presetPeriod(
  preset: 'thisMonth' | 'last12Months',
  today: ICalendarDate,
): { from: TMonth; to: TMonth } {
  const to = toIsoDate(today).slice(0, 7);
  if (preset === 'thisMonth') return { from: to, to };
  const start = {
    year: today.year - (today.month === 12 ? 0 : 1),
    month: (today.month % 12) + 1,
    day: 1,
  };
  return { from: toIsoDate(start).slice(0, 7), to };
}

/** Whether a custom range is one the overview answers (ordered, at most two years). */
export function periodProblem(from: TMonth, to: TMonth): string | null {
  if (!MONTH_PATTERN.test(from) || !MONTH_PATTERN.test(to)) return 'Pick months as YYYY-MM.';
  if (compareDates(monthDates(from).first, monthDates(to).first) > 0)
    return 'The first month must not be after the last.';
  if (monthsBetween(from, to).length > MAX_OVERVIEW_MONTHS)
    return `Pick at most ${MAX_OVERVIEW_MONTHS} months.`;
  return null;
}
