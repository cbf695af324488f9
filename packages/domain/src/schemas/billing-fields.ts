/**
 * The billing-address block and the card blocks shared by sign-up page 4 (001 §5), the
 * account billing form (000 §5) and the API requests that replace card data with a gateway
 * token (DECISIONS R5).
 */
import { z } from 'zod';
import { COUNTRY_CODES } from '../geo/countries.ts';
import { CARD_TYPES, isValidCardNumber, isValidCvv } from '../validation/card.ts';
import {
  EXPIRY_TEXT_PATTERN,
  expiryLengthPattern,
  isExpiryFormat,
  isExpiryInFuture,
  normalizeExpiry,
} from '../validation/expiry.ts';
import { isBlank, requiredMessage, stripWhitespace } from '../validation/text.ts';
import {
  ADDRESS_MAX_LENGTH,
  NAME_MAX_LENGTH,
  addressJsonSchema,
  checkAddress,
  optionalText,
  requiredText,
} from './fields.ts';
import { NOT_BLANK_PATTERN, WITHOUT_RAW_LENGTH, notBlank, trimmedPattern } from './json-schema.ts';
import { BILLING_LABELS, BILLING_ZIP_MESSAGE, CARD_MESSAGES } from './messages.ts';

/** The last four digits of a card. */
const LAST_FOUR = '[0-9]{4}';

/** A clock the caller supplies; schemas that judge expiry dates ask for one (no hidden clock). */
export type TClock = () => Date;

const BILLING_TEXT_KEYS = [
  'billingFirstName',
  'billingLastName',
  'billingAddress1',
  'billingCity',
] as const;

export const ZBillingAddressFieldsSchema = z.object({
  billingFirstName: optionalText(BILLING_LABELS.billingFirstName, NAME_MAX_LENGTH),
  billingLastName: optionalText(BILLING_LABELS.billingLastName, NAME_MAX_LENGTH),
  billingAddress1: optionalText(BILLING_LABELS.billingAddress1, ADDRESS_MAX_LENGTH),
  billingAddress2: optionalText('Billing address line 2', ADDRESS_MAX_LENGTH),
  billingCity: optionalText(BILLING_LABELS.billingCity),
  billingCountry: z
    .union([z.enum(COUNTRY_CODES), z.literal('')], {
      error: requiredMessage(BILLING_LABELS.billingCountry),
    })
    .default(''),
  billingState: z.string().trim().toUpperCase().max(3).default(''),
  billingZip: z.string().trim().toUpperCase().max(10).default(''),
});
export type TBillingAddressFields = z.infer<typeof ZBillingAddressFieldsSchema>;

/** Billing address required (000 §5: when the same-address box is unchecked). */
export function checkBillingAddress(values: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const key of BILLING_TEXT_KEYS) {
    if (isBlank(values[key] as string | undefined)) {
      ctx.addIssue({ code: 'custom', message: requiredMessage(BILLING_LABELS[key]), path: [key] });
    }
  }
  if (isBlank(values.billingCountry as string | undefined)) {
    ctx.addIssue({
      code: 'custom',
      message: requiredMessage(BILLING_LABELS.billingCountry),
      path: ['billingCountry'],
    });
  }
  checkAddress(
    values,
    { country: 'billingCountry', state: 'billingState', zip: 'billingZip' },
    { regionPrefix: 'Billing ', zip: BILLING_ZIP_MESSAGE, zipLabel: BILLING_LABELS.billingZip },
    ctx,
  );
}

const cardText = (max: number) =>
  z
    .string()
    .overwrite(stripWhitespace)
    .max(max, { error: CARD_MESSAGES.numberInvalid })
    .default('');

/** The card fields as typed; whitespace is stripped as on blur (000 §5, 001 §4). */
export const ZCardFieldsSchema = z.object({
  creditCardNumber: cardText(23),
  creditCardExpiration: z
    .string()
    .overwrite(normalizeExpiry)
    .max(4, { error: CARD_MESSAGES.expiryFormat })
    .default(''),
  creditCardCode: z
    .string()
    .overwrite(stripWhitespace)
    .max(4, { error: CARD_MESSAGES.cvvInvalid })
    .default(''),
});

export interface ICardCheckOptions {
  /** 001 §5 sign-up words the CVV message 'is required when credit card number is present.' */
  cvvRequiredMessage: string;
  now: Date;
  timeZone?: string;
}

/** Number, expiry and CVV of a card the user typed (000 §5, 001 §5). */
export function checkCard(
  values: Record<string, unknown>,
  ctx: z.RefinementCtx,
  options: ICardCheckOptions,
): void {
  const number = String(values.creditCardNumber ?? '');
  const expiry = String(values.creditCardExpiration ?? '');
  const cvv = String(values.creditCardCode ?? '');
  if (number === '') {
    ctx.addIssue({
      code: 'custom',
      message: CARD_MESSAGES.numberRequired,
      path: ['creditCardNumber'],
    });
  } else if (!isValidCardNumber(number)) {
    ctx.addIssue({
      code: 'custom',
      message: CARD_MESSAGES.numberInvalid,
      path: ['creditCardNumber'],
    });
  }
  checkExpiry(expiry, ctx, options.now, options.timeZone);
  if (cvv === '') {
    ctx.addIssue({ code: 'custom', message: options.cvvRequiredMessage, path: ['creditCardCode'] });
  } else if (cvv.length < 3) {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.cvvTooShort, path: ['creditCardCode'] });
  } else if (!isValidCvv(cvv)) {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.cvvInvalid, path: ['creditCardCode'] });
  }
}

/** Expiry MMYY whose month has not ended (000 §5). */
export function checkExpiry(
  expiry: string,
  ctx: z.RefinementCtx,
  now: Date,
  timeZone?: string,
): void {
  const path = ['creditCardExpiration'];
  if (expiry === '') {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.expiryRequired, path });
  } else if (!isExpiryFormat(expiry)) {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.expiryFormat, path });
  } else if (!isExpiryInFuture(expiry, now, timeZone)) {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.expiryPast, path });
  }
}

/**
 * What the API receives instead of a card (R5): the gateway's one-time token, plus brand,
 * last four digits and expiry for display.
 */
export const ZPaymentTokenFieldsSchema = z.object({
  paymentToken: z.string().trim().max(4096).default(''),
  cardBrand: z.union([z.enum(CARD_TYPES), z.literal('')]).default(''),
  cardLast4: z
    .string()
    .trim()
    .refine((v) => v === '' || /^\d{4}$/.test(v), { error: CARD_MESSAGES.numberInvalid })
    .meta({ pattern: trimmedPattern(`(?:${LAST_FOUR})?`) })
    .default(''),
  creditCardExpiration: z
    .string()
    .overwrite(normalizeExpiry)
    .max(4)
    .meta({ pattern: expiryLengthPattern(0, 4), ...WITHOUT_RAW_LENGTH })
    .default(''),
});
export type TPaymentTokenFields = z.infer<typeof ZPaymentTokenFieldsSchema>;

/**
 * A card being stored (`PUT /api/users/paymentProfile`): the token, its card and the billing name
 * and address are required, in the schema itself, so the OpenAPI description lists them as
 * required (docs/decisions/045). The same messages as `checkPaymentToken`/`checkBillingAddress`.
 */
export const ZStoredCardFieldsSchema = z.object({
  ...ZPaymentTokenFieldsSchema.shape,
  ...ZBillingAddressFieldsSchema.shape,
  paymentToken: z
    .string({ error: CARD_MESSAGES.numberRequired })
    .trim()
    .min(1, { error: CARD_MESSAGES.numberRequired })
    .max(4096),
  cardBrand: z.enum(CARD_TYPES, { error: CARD_MESSAGES.numberInvalid }),
  cardLast4: z
    .string({ error: CARD_MESSAGES.numberInvalid })
    .trim()
    .regex(/^\d{4}$/, { error: CARD_MESSAGES.numberInvalid })
    .meta({ pattern: trimmedPattern(LAST_FOUR) }),
  // The schema takes one to four characters; the format is `checkPaymentToken`'s, which always
  // runs here (the token is required), so the description states the format.
  creditCardExpiration: z
    .string({ error: CARD_MESSAGES.expiryRequired })
    .overwrite(normalizeExpiry)
    .min(1, { error: CARD_MESSAGES.expiryRequired })
    .max(4)
    .meta({ pattern: EXPIRY_TEXT_PATTERN, ...WITHOUT_RAW_LENGTH }),
  billingFirstName: requiredText(BILLING_LABELS.billingFirstName, NAME_MAX_LENGTH),
  billingLastName: requiredText(BILLING_LABELS.billingLastName, NAME_MAX_LENGTH),
  billingAddress1: requiredText(BILLING_LABELS.billingAddress1, ADDRESS_MAX_LENGTH),
  billingCity: requiredText(BILLING_LABELS.billingCity),
  billingCountry: z.enum(COUNTRY_CODES, { error: requiredMessage(BILLING_LABELS.billingCountry) }),
});

const BILLING_ADDRESS_KEYS = {
  country: 'billingCountry',
  state: 'billingState',
  zip: 'billingZip',
} as const;

/**
 * `checkPaymentToken` in JSON Schema words (docs/decisions/053): a brand, the last four digits and
 * an expiry MMYY. That the expiry month has not ended depends on the clock; the server checks it.
 */
export const PAYMENT_TOKEN_CARD_JSON_SCHEMA = {
  required: ['cardBrand', 'cardLast4', 'creditCardExpiration'],
  properties: {
    cardBrand: { enum: [...CARD_TYPES] },
    cardLast4: { pattern: NOT_BLANK_PATTERN },
    creditCardExpiration: { pattern: EXPIRY_TEXT_PATTERN },
  },
};

/** `checkBillingAddress` in JSON Schema words (docs/decisions/053). */
export const BILLING_ADDRESS_JSON_SCHEMA = {
  required: [...BILLING_TEXT_KEYS, 'billingCountry'],
  properties: {
    ...notBlank(BILLING_TEXT_KEYS).properties,
    billingCountry: { enum: [...COUNTRY_CODES] },
  },
  ...addressJsonSchema(BILLING_ADDRESS_KEYS),
};

/** JSON Schema: `then` applies when a payment token is sent (not blank), else `otherwise`. */
export function whenPaymentToken(then: object, otherwise?: object) {
  return { if: notBlank(['paymentToken']), then, ...(otherwise ? { else: otherwise } : {}) };
}

/** A token must come with brand, last four and a future expiry. */
export function checkPaymentToken(
  values: Record<string, unknown>,
  ctx: z.RefinementCtx,
  now: Date,
): void {
  if (isBlank(values.cardBrand as string)) {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.numberInvalid, path: ['cardBrand'] });
  }
  if (isBlank(values.cardLast4 as string)) {
    ctx.addIssue({ code: 'custom', message: CARD_MESSAGES.numberInvalid, path: ['cardLast4'] });
  }
  checkExpiry(String(values.creditCardExpiration ?? ''), ctx, now);
}
