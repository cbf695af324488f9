/**
 * Monthly prices in integer cents with effective dates (DECISIONS R3, 000 §9, 001 §9), and the
 * quote every screen and every charge is computed from.
 */
import {
  ALL_SUBSCRIPTION_CODES,
  baseOf,
  isExtraCode,
  isPaidCode,
  isSelectableCode,
  isSimulcastCode,
  nameOf,
} from './catalogue.ts';
import type { TBaseCode, TSubscriptionCode } from './catalogue.ts';
import type { TCents } from './money.ts';

/** Every effective date is midnight US Eastern standard time, i.e. 05:00 UTC (R3). */
export const PRICE_CHANGE_2025_AT = '2025-01-01T05:00:00Z';
export const PLATFORM_FEE_FROM = '2025-09-02T05:00:00Z';
export const PLATFORM_FEE_CENTS: TCents = 300;
export const SIMULCAST_CENTS: TCents = 3500;
/** R3: extras are free while this many paid items (bases or simulcasts) are selected. */
export const FREE_EXTRAS_PAID_THRESHOLD = 2;

/** One price, valid from `from` (inclusive; null = always) until the next entry's `from`. */
export interface IPricePeriod {
  from: string | null;
  cents: TCents;
}

/** Base prices; simulcasts are SIMULCAST_CENTS each (R3). Entries are in date order. */
export const BASE_PRICES: Readonly<Record<TBaseCode, readonly IPricePeriod[]>> = {
  APG: [{ from: null, cents: 6500 }],
  NADA: [
    { from: null, cents: 6500 },
    { from: PRICE_CHANGE_2025_AT, cents: 7000 },
  ],
  GALVES: [{ from: null, cents: 6500 }],
  BBK: [{ from: null, cents: 6500 }],
  KBB: [{ from: null, cents: 6500 }],
  ANET: [{ from: null, cents: 6500 }],
  MMR: [
    { from: null, cents: 8000 },
    { from: PRICE_CHANGE_2025_AT, cents: 6500 },
  ],
  RETAIL: [{ from: null, cents: 3500 }],
  WHLSLE: [{ from: null, cents: 3500 }],
  PMR: [{ from: null, cents: 6500 }],
  CF: [{ from: null, cents: 5500 }],
  AC: [{ from: null, cents: 5500 }],
};

function priceAt(periods: readonly IPricePeriod[], at: Date): TCents {
  const t = at.getTime();
  let cents = 0;
  for (const period of periods) {
    if (period.from === null || Date.parse(period.from) <= t) cents = period.cents;
  }
  return cents;
}

/** The list price of one code at an instant, before the extras rule. */
export function priceOf(code: TSubscriptionCode, at: Date): TCents {
  if (isSimulcastCode(code)) return SIMULCAST_CENTS;
  return priceAt(BASE_PRICES[baseOf(code)], at);
}

/** The platform fee for a subtotal (R3: every total above zero, from 2 September 2025). */
export function platformFeeFor(subtotalCents: TCents, at: Date): TCents {
  if (subtotalCents <= 0) return 0;
  return at.getTime() >= Date.parse(PLATFORM_FEE_FROM) ? PLATFORM_FEE_CENTS : 0;
}

/** Paid items in a selection: pricing guides, market reports and their simulcasts (R3). */
export function countPaid(selection: readonly TSubscriptionCode[]): number {
  return new Set(selection.filter((code) => isSelectableCode(code) && isPaidCode(code))).size;
}

/** R3: extras (simulcasts included) are free while two or more paid items are selected. */
export function extrasAreFree(selection: readonly TSubscriptionCode[]): boolean {
  return countPaid(selection) >= FREE_EXTRAS_PAID_THRESHOLD;
}

export interface IQuoteLine {
  code: TSubscriptionCode;
  name: string;
  /** What is charged for this line: 0 when free. */
  cents: TCents;
  /** The list price, shown struck through when the line is free. */
  listCents: TCents;
  free: boolean;
}

export interface IQuote {
  lines: IQuoteLine[];
  subtotalCents: TCents;
  platformFeeCents: TCents;
  totalCents: TCents;
}

/**
 * Prices a selection at an instant. Lines follow catalogue order, duplicates and codes that
 * cannot be selected (GALVES_S) are ignored, and total = sum of line cents + platform fee.
 */
export function quote(selection: readonly TSubscriptionCode[], at: Date): IQuote {
  const chosen = new Set(selection);
  const free = extrasAreFree(selection);
  const lines: IQuoteLine[] = ALL_SUBSCRIPTION_CODES.filter(
    (code) => chosen.has(code) && isSelectableCode(code),
  ).map((code) => {
    const listCents = priceOf(code, at);
    const isFree = free && isExtraCode(code);
    return { code, name: nameOf(code), cents: isFree ? 0 : listCents, listCents, free: isFree };
  });
  const subtotalCents = lines.reduce((sum, line) => sum + line.cents, 0);
  const platformFeeCents = platformFeeFor(subtotalCents, at);
  return { lines, subtotalCents, platformFeeCents, totalCents: subtotalCents + platformFeeCents };
}

/** Every instant at which some price or the fee changes (R3), in order. */
const PRICE_CHANGE_INSTANTS: readonly number[] = [
  ...new Set([
    ...Object.values(BASE_PRICES).flatMap((periods) =>
      periods.flatMap((period) => (period.from === null ? [] : [Date.parse(period.from)])),
    ),
    Date.parse(PLATFORM_FEE_FROM),
  ]),
].sort((a, b) => a - b);

/**
 * The first instant after `at` at which a quote may change, or null when no change is known: a
 * screen showing prices re-prices then (R3: the price shown is the price of that moment).
 */
export function nextPriceChangeAfter(at: Date): Date | null {
  const next = PRICE_CHANGE_INSTANTS.find((instant) => instant > at.getTime());
  return next === undefined ? null : new Date(next);
}
