/**
 * Field builders the form and request schemas share, so a field's rule and message are
 * written once (STYLE §2). Each takes the label the specification uses in its message.
 */
import { z } from 'zod';
import {
  COUNTRY_CODES,
  COUNTRY_LIST,
  isRegionOf,
  isValidPostalCode,
  regionLabelOf,
  requiresRegion,
} from '../geo/countries.ts';
import { EMAIL_MAX_LENGTH, EMAIL_MIN_LENGTH, EMAIL_PATTERN } from '../validation/email.ts';
import {
  normalizePhone,
  OPTIONAL_TEN_DIGIT_PHONE_PATTERN,
  TEN_DIGIT_PHONE_PATTERN,
  REQUEST_PHONE_PATTERN,
} from '../validation/phone.ts';
import { isBlank, requiredMessage } from '../validation/text.ts';
import { patternBody, trimmedPattern, upperCasedClass, upperCasedText } from './json-schema.ts';

export const NAME_MAX_LENGTH = 100;
export const ADDRESS_MAX_LENGTH = 200;
export const SHORT_TEXT_MAX_LENGTH = 100;

export const RECAPTCHA_MESSAGE = 'reCAPTCHA required to prove you’re not a robot.';

export function tooLongMessage(label: string, max: number): string {
  return `${label} must be at most ${max} characters.`;
}

/**
 * Required, trimmed text: '{label} is required.' for missing or blank values. The minimum does not
 * abort (an empty value cannot fail the maximum anyway), so a form's cross-field rule that runs
 * with RUN_WITH_FIELD_ERRORS still runs beside it.
 */
export function requiredText(label: string, max = SHORT_TEXT_MAX_LENGTH) {
  const message = requiredMessage(label);
  return z
    .string({ error: message })
    .trim()
    .min(1, { error: message })
    .max(max, { error: tooLongMessage(label, max) });
}

/** Optional, trimmed text; a missing value becomes ''. */
export function optionalText(label: string, max = SHORT_TEXT_MAX_LENGTH) {
  return z
    .string({ error: tooLongMessage(label, max) })
    .trim()
    .max(max, { error: tooLongMessage(label, max) })
    .default('');
}

export interface IEmailMessages {
  required: string;
  invalid: string;
  tooShort?: string;
  tooLong?: string;
}

/** E-mail, 8 to 254 characters (000 §5, 001 §5, §9). */
export function emailField(messages: IEmailMessages) {
  return z
    .string({ error: messages.required })
    .trim()
    .min(1, { error: messages.required, abort: true })
    .min(EMAIL_MIN_LENGTH, { error: messages.tooShort ?? messages.invalid, abort: true })
    .max(EMAIL_MAX_LENGTH, { error: messages.tooLong ?? messages.invalid, abort: true })
    .regex(EMAIL_PATTERN, { error: messages.invalid });
}

/**
 * `isValidEmail` or '' once trimmed, in JSON Schema words (docs/decisions/053): an address has no
 * white space, so its length is the count of the other characters.
 */
export const OPTIONAL_EMAIL_JSON_SCHEMA = {
  allOf: [
    { pattern: trimmedPattern(`(?:${patternBody(EMAIL_PATTERN)})?`) },
    { pattern: `^\\s*(?:\\S{${EMAIL_MIN_LENGTH},${EMAIL_MAX_LENGTH}})?\\s*$` },
  ],
};

/** An optional e-mail: '' or a valid address of 8 to 254 characters. */
export function optionalEmailField(message: string) {
  return z
    .string({ error: message })
    .trim()
    .refine(
      (v) =>
        v === '' ||
        (v.length >= EMAIL_MIN_LENGTH && v.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(v)),
      { error: message },
    )
    .meta(OPTIONAL_EMAIL_JSON_SCHEMA)
    .default('');
}

/** Exactly ten digits (000 §5 profile, 001 §5 contact). */
export function tenDigitPhoneField(message: string) {
  return z.string({ error: message }).trim().regex(TEN_DIGIT_PHONE_PATTERN, { error: message });
}

/** '' or exactly ten digits (000 §5 alternate phone). */
export function optionalTenDigitPhoneField(message: string) {
  return z
    .string({ error: message })
    .trim()
    .regex(OPTIONAL_TEN_DIGIT_PHONE_PATTERN, { error: message })
    .default('');
}

/**
 * A phone in a request body: the sign-up pattern or ten digits, sent on as ten digits
 * (001 §3: the final payload has the separators removed).
 */
export function requestPhoneField(required: string, invalid: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .regex(REQUEST_PHONE_PATTERN, { error: invalid })
    .transform(normalizePhone);
}

export function countryField(label: string) {
  return z.enum(COUNTRY_CODES, { error: requiredMessage(label) });
}

export const recaptchaField = z
  .string({ error: RECAPTCHA_MESSAGE })
  .trim()
  .min(1, { error: RECAPTCHA_MESSAGE })
  .max(10_000, { error: RECAPTCHA_MESSAGE });

/**
 * Options for a form's cross-field rule (`.superRefine(check, RUN_WITH_FIELD_ERRORS)`): zod skips
 * such a rule once any field has failed, so a form would show its errors in two rounds. This runs
 * it whenever the input is an object; the rule must cope with values that failed their field.
 */
export const RUN_WITH_FIELD_ERRORS = {
  when: (payload: { value: unknown }) =>
    typeof payload.value === 'object' && payload.value !== null,
};

export interface IAddressKeys {
  country: string;
  state: string;
  zip: string;
}

export interface IAddressMessages {
  /** Prefix for the region label: '' gives 'State is required.', 'Billing ' 'Billing state …'. */
  regionPrefix: string;
  /** A postal code that does not fit the country. */
  zip: string;
  /** With a label, an empty postal code gets '{label} is required.' (000 §5) instead. */
  zipLabel?: string;
}

/**
 * The region and postal rules that depend on the country (000 §5, 001 §5): the region is
 * required where the country requires one and must be one of its regions; the postal code
 * must match the country's pattern.
 */
export function checkAddress(
  values: Record<string, unknown>,
  keys: IAddressKeys,
  messages: IAddressMessages,
  ctx: z.RefinementCtx,
): void {
  const country = values[keys.country] as string | undefined;
  const state = String(values[keys.state] ?? '');
  const zip = String(values[keys.zip] ?? '');
  const regionLabel = regionLabelOf(country);
  const label = messages.regionPrefix
    ? `${messages.regionPrefix}${regionLabel.toLowerCase()}`
    : regionLabel;
  if (isBlank(state)) {
    if (requiresRegion(country)) {
      ctx.addIssue({ code: 'custom', message: requiredMessage(label), path: [keys.state] });
    }
  } else if (country && !isRegionOf(country, state)) {
    ctx.addIssue({ code: 'custom', message: requiredMessage(label), path: [keys.state] });
  }
  if (messages.zipLabel !== undefined && isBlank(zip)) {
    ctx.addIssue({ code: 'custom', message: requiredMessage(messages.zipLabel), path: [keys.zip] });
  } else if (!country || !isValidPostalCode(country, zip)) {
    ctx.addIssue({ code: 'custom', message: messages.zip, path: [keys.zip] });
  }
}

/**
 * A country's postal pattern as the code is typed (the field trims and upper-cases it): each
 * class of capitals also takes the characters whose upper case it holds.
 */
function typedPostalPattern(pattern: RegExp): string {
  return patternBody(pattern).replace(/\[([A-Z]+)\]/g, (_, letters: string) =>
    upperCasedClass(letters),
  );
}

/**
 * `checkAddress` in JSON Schema words (docs/decisions/053), for each country: the region is one
 * of its codes as typed (any case; blank where the country needs none) and the postal code
 * matches its pattern.
 */
export function addressJsonSchema(keys: IAddressKeys) {
  return {
    allOf: COUNTRY_LIST.map((country) => {
      const regions = country.regions.map((region) => upperCasedText(region.code)).join('|');
      return {
        if: { required: [keys.country], properties: { [keys.country]: { const: country.code } } },
        then: {
          required: [keys.zip, ...(country.requiresRegion ? [keys.state] : [])],
          properties: {
            [keys.state]: {
              pattern: trimmedPattern(country.requiresRegion ? regions : `(?:${regions})?`),
            },
            [keys.zip]: { pattern: trimmedPattern(typedPostalPattern(country.postalPattern)) },
          },
        },
      };
    }),
  };
}

/** A postal code as typed: trimmed and upper-cased ('k1a 0b1' → 'K1A 0B1'); checkAddress judges it. */
export function postalField(message: string) {
  return z.string({ error: message }).trim().toUpperCase().max(10, { error: message }).default('');
}

/** A region code: trimmed and upper-cased; checkAddress judges it against the country. */
export function regionField(message: string) {
  return z.string({ error: message }).trim().toUpperCase().max(3, { error: message }).default('');
}
