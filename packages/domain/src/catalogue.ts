/**
 * The subscription catalogue (000 §3, 001 §3, DECISIONS R3): what can be bought, how it is
 * grouped and named, and which codes are simulcast variants.
 */

export const CATALOGUE_GROUPS = ['Pricing Guides', 'Market Reports', 'Extras'] as const;
export type TCatalogueGroup = (typeof CATALOGUE_GROUPS)[number];

export const PRICING_GUIDE_CODES = ['APG', 'NADA', 'GALVES', 'BBK', 'KBB'] as const;
export const MARKET_REPORT_CODES = ['ANET', 'MMR', 'RETAIL', 'WHLSLE', 'PMR'] as const;
export const EXTRA_CODES = ['CF', 'AC'] as const;

export type TPricingGuideCode = (typeof PRICING_GUIDE_CODES)[number];
export type TMarketReportCode = (typeof MARKET_REPORT_CODES)[number];
export type TExtraCode = (typeof EXTRA_CODES)[number];
/** A base item: a pricing guide, a market report or an extra. */
export type TBaseCode = TPricingGuideCode | TMarketReportCode | TExtraCode;
/** A paid base item (R3): pricing guides and market reports. */
export type TPaidBaseCode = TPricingGuideCode | TMarketReportCode;

export const SIMULCAST_SUFFIX = '_S';
export type TSimulcastCode = `${TBaseCode}_S`;
/** Every code the catalogue knows, including GALVES_S which is never selectable. */
export type TSubscriptionCode = TBaseCode | TSimulcastCode;

export const BASE_CODES: readonly TBaseCode[] = [
  ...PRICING_GUIDE_CODES,
  ...MARKET_REPORT_CODES,
  ...EXTRA_CODES,
];

/** The GALVES simulcast is shown as unavailable (000 §9, 001 §3) and never selectable (R3). */
export const UNAVAILABLE_SIMULCAST_CODES: readonly TSimulcastCode[] = ['GALVES_S'];

export function simulcastOf(base: TBaseCode): TSimulcastCode {
  return `${base}${SIMULCAST_SUFFIX}`;
}

export const ALL_SUBSCRIPTION_CODES: readonly TSubscriptionCode[] = BASE_CODES.flatMap((base) => [
  base,
  simulcastOf(base),
]);

const ALL_CODE_SET: ReadonlySet<string> = new Set(ALL_SUBSCRIPTION_CODES);

/** Codes a user may select: everything except GALVES_S (R3). */
export const SELECTABLE_CODES: readonly TSubscriptionCode[] = ALL_SUBSCRIPTION_CODES.filter(
  (code) => !UNAVAILABLE_SIMULCAST_CODES.includes(code as TSimulcastCode),
);

const SELECTABLE_SET: ReadonlySet<string> = new Set(SELECTABLE_CODES);

export function isSubscriptionCode(value: unknown): value is TSubscriptionCode {
  return typeof value === 'string' && ALL_CODE_SET.has(value);
}

export function isSelectableCode(value: unknown): value is TSubscriptionCode {
  return typeof value === 'string' && SELECTABLE_SET.has(value);
}

export function isSimulcastCode(code: TSubscriptionCode): code is TSimulcastCode {
  return code.endsWith(SIMULCAST_SUFFIX);
}

/** The base item a code belongs to: `NADA_S` → `NADA`, `NADA` → `NADA`. */
export function baseOf(code: TSubscriptionCode): TBaseCode {
  return (isSimulcastCode(code) ? code.slice(0, -SIMULCAST_SUFFIX.length) : code) as TBaseCode;
}

export function isExtraCode(code: TSubscriptionCode): boolean {
  return (EXTRA_CODES as readonly string[]).includes(baseOf(code));
}

/** Paid items (R3): pricing guides, market reports and their simulcasts. */
export function isPaidCode(code: TSubscriptionCode): boolean {
  return !isExtraCode(code);
}

export function groupOf(code: TSubscriptionCode): TCatalogueGroup {
  const base = baseOf(code);
  if ((PRICING_GUIDE_CODES as readonly string[]).includes(base)) return 'Pricing Guides';
  if ((MARKET_REPORT_CODES as readonly string[]).includes(base)) return 'Market Reports';
  return 'Extras';
}

/** Footnote markers shown beside items and their texts (001 §2 page 3, 000 §3). */
export const FOOTNOTES = {
  blackBook: {
    marker: '*',
    text: 'Black Book license does not extend to integration with other vendor or auction sites.',
  },
  integrations: {
    marker: '**',
    text: 'The integration fee is separate from, and in addition to, any fees charged by the vehicle history report provider.',
  },
} as const;
export type TFootnoteKey = keyof typeof FOOTNOTES;

export interface ICatalogueItem {
  code: TBaseCode;
  group: TCatalogueGroup;
  name: string;
  footnote: TFootnoteKey | null;
  simulcastCode: TSimulcastCode;
  simulcastAvailable: boolean;
}

const BASE_NAMES: Record<TBaseCode, string> = {
  APG: 'Auction Price Guide',
  NADA: 'J.D. Power (NADA)',
  GALVES: 'Galves',
  BBK: 'Black Book',
  KBB: 'Kelley Blue Book',
  ANET: 'AuctionNet',
  MMR: 'Manheim Market Report',
  RETAIL: 'Retail Market Report',
  WHLSLE: 'Wholesale Market Report',
  PMR: 'Price My Ride',
  CF: 'CARFAX Integration',
  AC: 'AutoCheck Integration',
};

const FOOTNOTE_OF: Partial<Record<TBaseCode, TFootnoteKey>> = {
  BBK: 'blackBook',
  CF: 'integrations',
  AC: 'integrations',
};

/** The catalogue in display order, grouped as the sign-up page shows it. */
export const CATALOGUE: readonly ICatalogueItem[] = BASE_CODES.map((code) => ({
  code,
  group: groupOf(code),
  name: BASE_NAMES[code],
  footnote: FOOTNOTE_OF[code] ?? null,
  simulcastCode: simulcastOf(code),
  simulcastAvailable: isSelectableCode(simulcastOf(code)),
}));

/** Display name: 'Black Book', 'Black Book Simulcast'. */
export function nameOf(code: TSubscriptionCode): string {
  const base = BASE_NAMES[baseOf(code)];
  return isSimulcastCode(code) ? `${base} Simulcast` : base;
}

/**
 * Whether the subscriptions list shows an item as held (000 §3, 001 §4). Only the retail row
 * also counts its simulcast (RETAIL_S), as the specification states for that row alone;
 * every other row needs its own code.
 */
export function isHeld(subscriptions: readonly string[], base: TBaseCode): boolean {
  if (subscriptions.includes(base)) return true;
  return base === 'RETAIL' && subscriptions.includes(simulcastOf(base));
}

/** 'Yes' / 'No' as the subscriptions list shows it. */
export function heldLabel(subscriptions: readonly string[], base: TBaseCode): 'Yes' | 'No' {
  return isHeld(subscriptions, base) ? 'Yes' : 'No';
}
