/** Phone rules (000 §5, 001 §5, §9). */
import { digitsOnly } from './text.ts';

/** Phone input max length (001 §9): 'XXX-XXX-XXXX'. */
export const PHONE_INPUT_MAX_LENGTH = 12;
export const PHONE_DIGITS = 10;

/**
 * Sign-up mobile phone (001 §5): XXX-XXX-XXXX, where the area code may instead be written in
 * parentheses, '(XXX) XXX-XXXX'. Both forms hold exactly ten digits.
 */
export const SIGNUP_PHONE_PATTERN = /^(?:\(\d{3}\) ?|\d{3}-)\d{3}-\d{4}$/;

/** Profile, alternate and contact phones: exactly ten digits (000 §5, 001 §5). */
export const TEN_DIGIT_PHONE_PATTERN = /^\d{10}$/;

/**
 * A phone in a request body: the sign-up form or ten digits (001 §3), as one pattern the OpenAPI
 * description carries (docs/decisions/045).
 */
export const REQUEST_PHONE_PATTERN = new RegExp(
  `^(?:${SIGNUP_PHONE_PATTERN.source.slice(1, -1)}|${TEN_DIGIT_PHONE_PATTERN.source.slice(1, -1)})$`,
);
/** An optional ten-digit phone: empty or ten digits. */
export const OPTIONAL_TEN_DIGIT_PHONE_PATTERN = /^(?:\d{10})?$/;

export function isSignupPhone(value: string): boolean {
  return SIGNUP_PHONE_PATTERN.test(value);
}

export function isTenDigitPhone(value: string): boolean {
  return TEN_DIGIT_PHONE_PATTERN.test(value);
}

/** The payload form of a phone: separators removed (001 §3 Final sign-up payload). */
export function normalizePhone(value: string): string {
  return digitsOnly(value);
}

/** 'XXX-XXX-XXXX' as the dash-delimited US input shows it (001 §5); partial input stays partial. */
export function formatPhoneInput(value: string): string {
  const digits = digitsOnly(value).slice(0, PHONE_DIGITS);
  if (digits.length <= 3) return digits;
  if (digits.length <= 6) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  return `${digits.slice(0, 3)}-${digits.slice(3, 6)}-${digits.slice(6)}`;
}

/**
 * A stored phone as people read it: ten digits (separators ignored) become '(313) 555-0142'.
 * Anything else is shown as stored, since it cannot be split into area code and number reliably.
 */
export function formatPhoneForDisplay(value: string): string {
  const digits = digitsOnly(value);
  if (digits.length !== PHONE_DIGITS) return value;
  return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
}
