/**
 * Monthly prices in integer cents with effective instants (DECISIONS R3, R11, 000 §9, 001 §9),
 * and the quote every screen and every charge is computed from. The prices themselves are data
 * (R11): the server keeps them in its database and hands the table in; `R3_PRICE_TABLE` is the
 * table the database is seeded with, so every date before a scheduled change prices as R3 says.
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

/** What a price row prices: a base item, every simulcast (one price, R3), or the platform fee. */
export type TPricedItem = TBaseCode | 'SIMULCAST' | 'PLATFORM_FEE';
// Literals (no spread, no call), so a bundle that does not use them leaves them out.
export const PRICED_ITEMS: readonly TPricedItem[] = [
  'APG',
  'NADA',
  'GALVES',
  'BBK',
  'KBB',
  'ANET',
  'MMR',
  'RETAIL',
  'WHLSLE',
  'PMR',
  'CF',
  'AC',
  'SIMULCAST',
  'PLATFORM_FEE',
];

export function isPricedItem(value: unknown): value is TPricedItem {
  return typeof value === 'string' && (PRICED_ITEMS as readonly string[]).includes(value);
}

/** One dated price (R11): valid from `from` (inclusive; null = always) until the item's next row. */
export interface IPriceRow {
  item: TPricedItem;
  /** An ISO instant, or null for the opening price. */
  from: string | null;
  cents: TCents;
}

/** The whole price table, in any order. */
export type TPriceTable = readonly IPriceRow[];

/** R3's table: the opening prices, the 2025 market-report change and the platform fee. */
export const R3_PRICE_TABLE: TPriceTable = [
  { item: 'APG', from: null, cents: 6500 },
  { item: 'NADA', from: null, cents: 6500 },
  { item: 'GALVES', from: null, cents: 6500 },
  { item: 'BBK', from: null, cents: 6500 },
  { item: 'KBB', from: null, cents: 6500 },
  { item: 'ANET', from: null, cents: 6500 },
  { item: 'MMR', from: null, cents: 8000 },
  { item: 'RETAIL', from: null, cents: 3500 },
  { item: 'WHLSLE', from: null, cents: 3500 },
  { item: 'PMR', from: null, cents: 6500 },
  { item: 'CF', from: null, cents: 5500 },
  { item: 'AC', from: null, cents: 5500 },
  { item: 'NADA', from: PRICE_CHANGE_2025_AT, cents: 7000 },
  { item: 'MMR', from: PRICE_CHANGE_2025_AT, cents: 6500 },
  { item: 'SIMULCAST', from: null, cents: SIMULCAST_CENTS },
  { item: 'PLATFORM_FEE', from: null, cents: 0 },
  { item: 'PLATFORM_FEE', from: PLATFORM_FEE_FROM, cents: PLATFORM_FEE_CENTS },
];

/** A table indexed per item, rows by instant (null first); built once per table. */
type TPriceIndex = ReadonlyMap<TPricedItem, readonly { at: number; cents: TCents }[]>;
const INDEXES = new WeakMap<TPriceTable, TPriceIndex>();

function indexOf(table: TPriceTable): TPriceIndex {
  let index = INDEXES.get(table);
  if (!index) {
    const byItem = new Map<TPricedItem, { at: number; cents: TCents }[]>();
    for (const row of table) {
      const at = row.from === null ? Number.NEGATIVE_INFINITY : Date.parse(row.from);
      const rows = byItem.get(row.item) ?? [];
      rows.push({ at, cents: row.cents });
      byItem.set(row.item, rows);
    }
    for (const rows of byItem.values()) rows.sort((a, b) => a.at - b.at);
    index = byItem;
    INDEXES.set(table, index);
  }
  return index;
}

/** The price of one item at an instant: its latest row in force then (0 when it has none). */
export function itemPriceAt(table: TPriceTable, item: TPricedItem, at: Date): TCents {
  const t = at.getTime();
  let cents = 0;
  for (const row of indexOf(table).get(item) ?? []) {
    if (row.at <= t) cents = row.cents;
    else break;
  }
  return cents;
}

/** The list price of one code at an instant, before the extras rule. */
export function priceOf(code: TSubscriptionCode, at: Date, table: TPriceTable): TCents {
  return itemPriceAt(table, isSimulcastCode(code) ? 'SIMULCAST' : baseOf(code), at);
}

/** The platform fee for a subtotal (R3: every total above zero, from 2 September 2025). */
export function platformFeeFor(subtotalCents: TCents, at: Date, table: TPriceTable): TCents {
  if (subtotalCents <= 0) return 0;
  return itemPriceAt(table, 'PLATFORM_FEE', at);
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
export function quote(
  selection: readonly TSubscriptionCode[],
  at: Date,
  table: TPriceTable,
): IQuote {
  const chosen = new Set(selection);
  const free = extrasAreFree(selection);
  const lines: IQuoteLine[] = ALL_SUBSCRIPTION_CODES.filter(
    (code) => chosen.has(code) && isSelectableCode(code),
  ).map((code) => {
    const listCents = priceOf(code, at, table);
    const isFree = free && isExtraCode(code);
    return { code, name: nameOf(code), cents: isFree ? 0 : listCents, listCents, free: isFree };
  });
  const subtotalCents = lines.reduce((sum, line) => sum + line.cents, 0);
  const platformFeeCents = platformFeeFor(subtotalCents, at, table);
  return { lines, subtotalCents, platformFeeCents, totalCents: subtotalCents + platformFeeCents };
}

/**
 * The first instant after `at` at which a quote may change, or null when no change is known: a
 * screen showing prices re-prices then (R3: the price shown is the price of that moment).
 */
export function nextPriceChangeAfter(at: Date, table: TPriceTable): Date | null {
  let next = Number.POSITIVE_INFINITY;
  for (const row of table) {
    if (row.from === null) continue;
    const instant = Date.parse(row.from);
    if (instant > at.getTime() && instant < next) next = instant;
  }
  return next === Number.POSITIVE_INFINITY ? null : new Date(next);
}

/**
 * A selection's monthly total just before an instant and from it (R11): how a dated change moves
 * it. The price-change notices and the sign-up summary both ask here.
 */
export function totalsAround(
  codes: readonly TSubscriptionCode[],
  at: Date,
  table: TPriceTable,
): { oldTotalCents: TCents; newTotalCents: TCents } {
  return {
    oldTotalCents: quote(codes, new Date(at.getTime() - 1), table).totalCents,
    newTotalCents: quote(codes, at, table).totalCents,
  };
}
