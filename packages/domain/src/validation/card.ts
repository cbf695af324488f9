/**
 * Card rules for our own card fields (000 §5, 001 §5). The values go from the browser straight
 * to the gateway's tokenization endpoint (DECISIONS R5); these checks run in the browser.
 */
import { stripWhitespace } from './text.ts';

export const CARD_TYPES = ['amex', 'discover', 'mastercard', 'visa'] as const;
export type TCardType = (typeof CARD_TYPES)[number];

export const CVV_MIN_LENGTH = 3;
export const CVV_MAX_LENGTH = 4;
export const CARD_NUMBER_MIN_DIGITS = 12;
export const CARD_NUMBER_MAX_DIGITS = 19;
/** The number input accepts digits and spaces (000 §5). */
export const CARD_NUMBER_INPUT_PATTERN = /^[\d ]*$/;

/** Issuer prefixes and valid lengths; the first match wins. */
const CARD_RULES: readonly { type: TCardType; prefix: RegExp; lengths: readonly number[] }[] = [
  { type: 'amex', prefix: /^3[47]/, lengths: [15] },
  {
    type: 'discover',
    prefix: /^(?:6011|65|64[4-9]|622(?:12[6-9]|1[3-9]\d|[2-8]\d\d|9[01]\d|92[0-5]))/,
    lengths: [16, 17, 18, 19],
  },
  {
    type: 'mastercard',
    prefix: /^(?:5[1-5]|2(?:22[1-9]|2[3-9]\d|[3-6]\d\d|7[01]\d|720))/,
    lengths: [16],
  },
  { type: 'visa', prefix: /^4/, lengths: [13, 16, 19] },
];

const CARD_BRAND_NAMES: Record<TCardType, string> = {
  amex: 'American Express',
  discover: 'Discover',
  mastercard: 'Mastercard',
  visa: 'Visa',
};

/**
 * A brand as people write it ('visa' → 'Visa'). Gateways and stored rows carry lower-case codes;
 * a brand that is already a name, or one we do not know, is shown as it is.
 */
export function cardBrandName(brand: string): string {
  return CARD_BRAND_NAMES[brand.trim().toLowerCase() as TCardType] ?? brand;
}

/** Detects the brand from the leading digits, as the number input does while typing. */
export function detectCardType(number: string): TCardType | null {
  const digits = stripWhitespace(number);
  return CARD_RULES.find((rule) => rule.prefix.test(digits))?.type ?? null;
}

/** The Luhn checksum every card number carries. */
export function passesLuhn(number: string): boolean {
  const digits = stripWhitespace(number);
  if (!/^\d+$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A number the gateway could accept: known brand, that brand's length, Luhn valid. */
export function isValidCardNumber(number: string): boolean {
  const digits = stripWhitespace(number);
  const rule = CARD_RULES.find((r) => r.prefix.test(digits));
  return !!rule && rule.lengths.includes(digits.length) && passesLuhn(digits);
}

/** CVV: 3 or 4 digits (000 §5: minimum 3, input maximum 4). */
export function isValidCvv(value: string): boolean {
  return /^\d{3,4}$/.test(stripWhitespace(value));
}

/** Last four digits for display and for the API (R5: the API only ever sees these). */
export function lastFour(number: string): string {
  return stripWhitespace(number).slice(-4);
}

/** The masked number as the card tile shows it, e.g. '**** 1111'. */
export function maskCardNumber(lastDigits: string): string {
  return `**** ${lastDigits.slice(-4)}`;
}
