/**
 * The words a payment is described with, wherever it is described (the PDF receipt, its
 * e-mail, the payment history): one brand name, one period, so they cannot disagree.
 */
import { CARD_TYPES, type TCardType } from '../validation/card.ts';
import { addDays, formatCalendarDate, parseIsoDate, toIsoDate } from '../time/calendar-date.ts';

const CARD_BRAND_NAMES: Record<TCardType, string> = {
  amex: 'American Express',
  discover: 'Discover',
  mastercard: 'Mastercard',
  visa: 'Visa',
};

const isCardType = (value: string): value is TCardType =>
  (CARD_TYPES as readonly string[]).includes(value);

/** 'visa' → 'Visa'. The gateway's brand codes get their names; any other brand is shown as it is. */
export function cardBrandName(brand: string | null | undefined): string {
  const trimmed = (brand ?? '').trim();
  if (trimmed === '') return 'Card';
  const code = trimmed.toLowerCase();
  return isCardType(code) ? CARD_BRAND_NAMES[code] : trimmed;
}

/** 'Visa ending in 1111' */
export function paidWithText(brand: string | null | undefined, last4: string | null | undefined) {
  return `${cardBrandName(brand)} ending in ${last4 || '----'}`;
}

/**
 * A check payment's transaction id is `check:{number}` (R14): no gateway took it, so no gateway
 * refund or chargeback applies to it, and its number is kept whole there.
 */
export const CHECK_TRANSACTION_PREFIX = 'check:';

export const isCheckPayment = (payment: { gatewayTransactionId: string }) =>
  payment.gatewayTransactionId.startsWith(CHECK_TRANSACTION_PREFIX);

/** What paid a payment, as every screen and document names it: 'Visa ending in 1111', 'Check 1234'. */
export function paymentPaidWith(payment: {
  gatewayTransactionId: string;
  cardBrand: string | null;
  cardLast4: string | null;
}): string {
  return isCheckPayment(payment)
    ? `Check ${payment.gatewayTransactionId.slice(CHECK_TRANSACTION_PREFIX.length)}`
    : paidWithText(payment.cardBrand, payment.cardLast4);
}

/** A billing period's first and last day (ISO dates), from its start and the next period's start. */
export function billingPeriodShown(
  periodStart: string,
  nextPeriodStart: string,
): { from: string; to: string } {
  const next = parseIsoDate(nextPeriodStart);
  if (!next) throw new RangeError(`not a date: ${nextPeriodStart}`);
  return { from: periodStart, to: toIsoDate(addDays(next, -1)) };
}

/** 'Nov 23, 2026 – Dec 22, 2026' */
export function billingPeriodText(period: { from: string; to: string }): string {
  return `${formatCalendarDate(parseIsoDate(period.from))} – ${formatCalendarDate(parseIsoDate(period.to))}`;
}
