/**
 * The sign-up order summary (001 §2; DECISIONS R4, R11; docs/decisions/032): what a sign-up
 * charges today, when its next charge falls and how much it will be. One computation, used by the
 * page's summary (through the server's preview) and by the sign-up that charges, so the two
 * cannot say different things.
 */
import { formatCurrency } from '../money.ts';
import type { TCents } from '../money.ts';
import type { TSubscriptionCode } from '../catalogue.ts';
import { quote, totalsAround, type IQuote, type TPriceTable } from '../prices.ts';
import {
  calendarDateIn,
  formatCalendarDate,
  parseIsoDate,
  startOfDayIn,
  toIsoDate,
  type ICalendarDate,
} from '../time/calendar-date.ts';
import { applyPromotion, type IPromotion, type IPromotionEffect } from './promotion.ts';
import { billDateOfCycle } from './renewal-calendar.ts';

/** The local-storage key the browser keeps the display total under (001 §2, R3). */
export const SUBTOTAL_STORAGE_KEY = 'sub_total';

/** A scheduled change that moves the selection's monthly total (R11's notice). */
export interface ISelectionPriceChange {
  /** The business date it takes effect, 'YYYY-MM-DD'. */
  effectiveDate: string;
  /** Its instant (midnight in the business time zone). */
  effectiveFrom: string;
  oldTotalCents: TCents;
  newTotalCents: TCents;
}

export interface ISignupCharges {
  /** The selection priced now (what the sign-up's first month is worth). */
  quote: IQuote;
  /** What the promotion does to the first charge (none: the full month). */
  effect: IPromotionEffect;
  /** Charged at sign-up (R4): 0 when a free month covers it. */
  chargedTodayCents: TCents;
  /** The real first renewal date (R4), moved on by a promotion's free months. */
  nextChargeDate: ICalendarDate;
  /** What that renewal charges: the selection at the prices in force that day (R11). */
  nextChargeCents: TCents;
  /** Every change scheduled after now that moves this selection's total (R11: the notice). */
  priceChanges: ISelectionPriceChange[];
}

/**
 * What a sign-up at `now` charges and when (R4, R11): the first charge after the promotion, the
 * first renewal `coveredMonths` months on (same day, clamped), priced at that day's prices, and
 * the scheduled changes ahead that move the monthly total.
 */
export function signupCharges(
  codes: readonly TSubscriptionCode[],
  promotion: IPromotion | null,
  now: Date,
  timeZone: string,
  table: TPriceTable,
): ISignupCharges {
  const priced = quote(codes, now, table);
  const effect = applyPromotion(priced, promotion);
  const nextChargeDate = billDateOfCycle(calendarDateIn(now, timeZone), effect.coveredMonths);
  const nextChargeCents = quote(codes, startOfDayIn(nextChargeDate, timeZone), table).totalCents;
  return {
    quote: priced,
    effect,
    chargedTodayCents: effect.firstChargeCents,
    nextChargeDate,
    nextChargeCents,
    priceChanges: priceChangesAhead(codes, now, timeZone, table),
  };
}

/** Each dated instant after `now` at which the selection's monthly total moves, in order. */
export function priceChangesAhead(
  codes: readonly TSubscriptionCode[],
  now: Date,
  timeZone: string,
  table: TPriceTable,
): ISelectionPriceChange[] {
  const instants = [
    ...new Set(
      table
        .filter((row) => row.from !== null && Date.parse(row.from) > now.getTime())
        .map((row) => Date.parse(row.from!)),
    ),
  ].sort((a, b) => a - b);
  return instants.flatMap((at) => {
    const { oldTotalCents, newTotalCents } = totalsAround(codes, new Date(at), table);
    if (oldTotalCents === newTotalCents) return [];
    return [
      {
        effectiveDate: toIsoDate(calendarDateIn(new Date(at), timeZone)),
        effectiveFrom: new Date(at).toISOString(),
        oldTotalCents,
        newTotalCents,
      },
    ];
  });
}

/** 'Your next charge will be $X (plus tax if applicable) on {date}. Cancel or Adjust anytime' (001 §2). */
export function nextChargeText(cents: TCents, date: ICalendarDate): string {
  return `Your next charge will be ${formatCurrency(cents)} (plus tax if applicable) on ${formatCalendarDate(date)}. Cancel or Adjust anytime`;
}

/** What is charged today (R4): the first month, less a promotion's discount, or nothing. */
export function chargedTodayText(
  charges: Pick<ISignupCharges, 'chargedTodayCents' | 'effect'>,
  promotionCode: string | null,
): string {
  const { chargedTodayCents, effect } = charges;
  const months = effect.coveredMonths;
  if (chargedTodayCents === 0 && promotionCode) {
    return months > 1
      ? `Nothing is charged today: your first ${months} months are free with ${promotionCode}.`
      : `Nothing is charged today: your first month is free with ${promotionCode}.`;
  }
  if (effect.discountCents > 0 && promotionCode) {
    return `Your first month, ${formatCurrency(chargedTodayCents)} (plus tax if applicable) after ${formatCurrency(effect.discountCents)} off with ${promotionCode}, is charged today.`;
  }
  return `Your first month, ${formatCurrency(chargedTodayCents)} (plus tax if applicable), is charged today.`;
}

/** R4: the first monthly charge is taken at sign-up; the summary says so beside the next charge. */
export function firstChargeText(totalCents: TCents): string {
  return chargedTodayText(
    {
      chargedTodayCents: totalCents,
      effect: { firstChargeCents: totalCents, discountCents: 0, coveredMonths: 1, line: null },
    },
    null,
  );
}

/** R11's notice of a change scheduled before the sign-up (the summary and the welcome e-mail). */
export function priceChangeNoticeText(change: ISelectionPriceChange): string {
  const date = formatCalendarDate(parseIsoDate(change.effectiveDate));
  return `From ${date}, the monthly total of these subscriptions changes from ${formatCurrency(change.oldTotalCents)} to ${formatCurrency(change.newTotalCents)}.`;
}

/**
 * The welcome e-mail's notice (R11 amended): a sign-up between a change's scheduling and its date
 * is told as the accounts were at scheduling. Empty when no change ahead moves its total.
 */
export function welcomePriceNoticeLines(changes: readonly ISelectionPriceChange[]): string[] {
  if (changes.length === 0) return [];
  return [
    ...changes.map(priceChangeNoticeText),
    'A price change was announced before you signed up: your first bill on or after that date is charged at the new price.',
  ];
}

/** The summary the server answers; every text is composed here, so page and e-mail agree. */
export interface ISignupOrderSummary {
  chargedTodayCents: TCents;
  nextChargeDate: string;
  nextChargeCents: TCents;
  /** The promotion code applied, upper-case; null when none was given or it cannot be used. */
  promotionCode: string | null;
  /** Why the code typed cannot be used (001 §8's text); null when it can or none was typed. */
  promotionProblem: string | null;
  priceChanges: ISelectionPriceChange[];
  texts: { chargedToday: string; nextCharge: string; priceChanges: string[] };
}

/** The summary of a computation, with its texts (the server's answer to the page). */
export function orderSummaryOf(
  charges: ISignupCharges,
  promotion: { code: string | null; problem: string | null },
): ISignupOrderSummary {
  return {
    chargedTodayCents: charges.chargedTodayCents,
    nextChargeDate: toIsoDate(charges.nextChargeDate),
    nextChargeCents: charges.nextChargeCents,
    promotionCode: promotion.code,
    promotionProblem: promotion.problem,
    priceChanges: charges.priceChanges,
    texts: {
      chargedToday: chargedTodayText(charges, promotion.code),
      nextCharge: nextChargeText(charges.nextChargeCents, charges.nextChargeDate),
      priceChanges: charges.priceChanges.map(priceChangeNoticeText),
    },
  };
}
