/**
 * Promotion codes at sign-up (issue 6, 001 §8; docs/decisions/013): what a code is, whether it
 * may be used now, and what it does to the first charge. Pure: the server reads the code's row
 * and the clock and asks here.
 */
import type { TErrorCode } from '../messages.ts';
import type { TCents } from '../money.ts';
import type { IQuote } from '../prices.ts';

/** The most an amount-off code takes off (cents): $10,000, more than any sign-up charges. */
export const MAX_AMOUNT_OFF_CENTS = 1_000_000;

export const PROMOTION_KINDS = ['percent_off', 'amount_off', 'free_months'] as const;
export type TPromotionKind = (typeof PROMOTION_KINDS)[number];

/** Codes are compared without case or surrounding spaces; stored upper-case. */
export const PROMOTION_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{1,49}$/;

/** A new code as staff type it (trimmed): the stored form in either case. */
export const PROMOTION_CODE_INPUT_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{1,49}$/;

/** The largest value of each kind: percent_off 100 %, amount_off in cents, free_months months. */
export const PROMOTION_VALUE_MAXIMUM: Readonly<Record<TPromotionKind, number>> = {
  percent_off: 100,
  amount_off: MAX_AMOUNT_OFF_CENTS,
  free_months: 12,
};

export interface IPromotion {
  code: string;
  kind: TPromotionKind;
  /** percent_off: 1–100; amount_off: cents; free_months: whole months (1–12). */
  value: number;
  /** The first instant the code no longer works; null for never. */
  expiresAt: Date | null;
  /** How many sign-ups may use it; null for no limit. */
  maxRedemptions: number | null;
  /** How many sign-ups used it (or hold it while their charge is in flight). */
  redemptions: number;
  /** Some codes only work together with a card on file (001 §8). */
  requiresCard: boolean;
  /** Set when staff disabled the code (R12): from then on it is refused like an expired one. */
  disabledAt?: Date | null;
}

export function normalizePromotionCode(value: string): string {
  return value.trim().toUpperCase();
}

/** Whether a promotion's value is sensible for its kind (the server's table keeps to it too). */
export function isValidPromotionValue(kind: TPromotionKind, value: number): boolean {
  if (!Number.isInteger(value) || value <= 0) return false;
  return value <= (PROMOTION_VALUE_MAXIMUM[kind] ?? MAX_AMOUNT_OFF_CENTS);
}

export interface IPromotionEffect {
  /** What the sign-up charges now, after the promotion. */
  firstChargeCents: TCents;
  /** How much the promotion took off the first charge. */
  discountCents: TCents;
  /** Months the sign-up pays for (or gets free): the first renewal is this many months on. */
  coveredMonths: number;
  /** A receipt line that names the promotion, when it changed the amount. */
  line: { code: string; name: string; cents: TCents } | null;
}

/**
 * What a promotion does to the sign-up (decision 013):
 * - percent_off / amount_off: taken off the first charge only (never below zero); renewals are
 *   the full price;
 * - free_months: nothing is charged now and the first renewal falls that many months on.
 */
export function applyPromotion(quote: IQuote, promotion: IPromotion | null): IPromotionEffect {
  const total = quote.totalCents;
  if (!promotion) {
    return { firstChargeCents: total, discountCents: 0, coveredMonths: 1, line: null };
  }
  let discount: TCents;
  let coveredMonths = 1;
  switch (promotion.kind) {
    case 'percent_off':
      discount = Math.round((total * Math.min(promotion.value, 100)) / 100);
      break;
    case 'amount_off':
      discount = Math.min(total, promotion.value);
      break;
    case 'free_months':
      discount = total;
      coveredMonths = promotion.value;
      break;
  }
  const name =
    promotion.kind === 'free_months'
      ? `Promotion ${promotion.code}: ${promotion.value} free month${promotion.value === 1 ? '' : 's'}`
      : `Promotion ${promotion.code}`;
  return {
    firstChargeCents: total - discount,
    discountCents: discount,
    coveredMonths,
    line:
      discount > 0 || promotion.kind === 'free_months'
        ? { code: 'PROMO', name, cents: -discount }
        : null,
  };
}

export const PROMOTION_STATUSES = ['active', 'expired', 'used up', 'disabled'] as const;
export type TPromotionStatus = (typeof PROMOTION_STATUSES)[number];

/**
 * Where a code stands at `now`, the one answer the console shows and sign-up obeys: disabled by
 * staff, past its expiry (the first instant it no longer works), its redemptions used up, or
 * active. The first that holds wins, in that order.
 */
export function promotionStatus(
  promotion: Pick<IPromotion, 'expiresAt' | 'maxRedemptions' | 'redemptions' | 'disabledAt'>,
  now: Date,
): TPromotionStatus {
  if (promotion.disabledAt) return 'disabled';
  if (promotion.expiresAt && promotion.expiresAt.getTime() <= now.getTime()) return 'expired';
  if (promotion.maxRedemptions !== null && promotion.redemptions >= promotion.maxRedemptions) {
    return 'used up';
  }
  return 'active';
}

/**
 * Why a promotion cannot be used for this sign-up, as the error code whose text the user sees
 * (001 §8), or null when it can:
 * - unknown, expired or disabled by staff: 'Promotion code not valid.';
 * - its redemptions used up: 'Promotion code retries has exceeded limits';
 * - it needs a card and none was given, or it leaves something to charge and no card was given:
 *   'Entered promotion code requires credit card.'
 */
export function promotionProblem(
  promotion: IPromotion | null,
  context: { now: Date; hasCard: boolean; quote: IQuote },
): Extract<
  TErrorCode,
  'PROMO_NOT_VALID' | 'PROMO_RETRIES_EXCEEDED' | 'PROMO_REQUIRES_CARD'
> | null {
  if (!promotion) return 'PROMO_NOT_VALID';
  if (!isValidPromotionValue(promotion.kind, promotion.value)) return 'PROMO_NOT_VALID';
  const status = promotionStatus(promotion, context.now);
  // A disabled code says no more than an expired one: the sign-up cannot tell them apart.
  if (status === 'expired' || status === 'disabled') return 'PROMO_NOT_VALID';
  if (status === 'used up') return 'PROMO_RETRIES_EXCEEDED';
  if (!context.hasCard) {
    if (promotion.requiresCard) return 'PROMO_REQUIRES_CARD';
    if (applyPromotion(context.quote, promotion).firstChargeCents > 0) return 'PROMO_REQUIRES_CARD';
  }
  return null;
}
