/**
 * The final sign-up payload, `POST /api/v2/signup` (001 §3, §7; DECISIONS R5): every form
 * value except the card, which the gateway turned into a token; billing filled from the profile
 * address when `sameAddresses` is on; the phone without separators; and `forwardTo`.
 */
import { z } from 'zod';
import { COUNTRY_CODES } from '../geo/countries.ts';
import { errorMessage } from '../messages.ts';
import { normalizePhone } from '../validation/phone.ts';
import { isBlank } from '../validation/text.ts';
import {
  BILLING_ADDRESS_JSON_SCHEMA,
  PAYMENT_TOKEN_CARD_JSON_SCHEMA,
  ZBillingAddressFieldsSchema,
  ZPaymentTokenFieldsSchema,
  checkBillingAddress,
  checkPaymentToken,
  whenPaymentToken,
} from './billing-fields.ts';
import type { TClock, TPaymentTokenFields } from './billing-fields.ts';
import { billingFromAccount } from './billing-form.ts';
import {
  addressJsonSchema,
  optionalEmailField,
  optionalTenDigitPhoneField,
  requestPhoneField,
} from './fields.ts';
import { notBlank } from './json-schema.ts';
import { SIGNUP_PHONE_MESSAGES, ZSignupContactFieldsSchema } from './signup-contact.ts';
import { ZSignupDealershipFieldsSchema, checkDealershipAddress } from './signup-dealership.ts';
import { PROMO_CODE_MAX_LENGTH } from './signup-payment.ts';
import type { TSignupPaymentFields } from './signup-payment.ts';
import { ZSignupSubscriptionsFieldsSchema } from './signup-subscriptions.ts';

export const FORWARD_TO_MESSAGE = 'forwardTo must be an absolute http(s) URL.';
export const LEAD_ID_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

const DEC_OCTET = '(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const IPV4 = `${DEC_OCTET}(?:\\.${DEC_OCTET}){3}`;
const H16 = '[0-9A-Fa-f]{1,4}';
const LS32 = `(?:${H16}:${H16}|${IPV4})`;
/** RFC 3986's IPv6address, which the URL parser reads too. */
const IPV6 = [
  `(?:${H16}:){6}${LS32}`,
  `::(?:${H16}:){5}${LS32}`,
  `(?:${H16})?::(?:${H16}:){4}${LS32}`,
  `(?:(?:${H16}:){0,1}${H16})?::(?:${H16}:){3}${LS32}`,
  `(?:(?:${H16}:){0,2}${H16})?::(?:${H16}:){2}${LS32}`,
  `(?:(?:${H16}:){0,3}${H16})?::${H16}:${LS32}`,
  `(?:(?:${H16}:){0,4}${H16})?::${LS32}`,
  `(?:(?:${H16}:){0,5}${H16})?::${H16}`,
  `(?:(?:${H16}:){0,6}${H16})?::`,
].join('|');
/**
 * A host name of letters, digits and single inner hyphens, its last label starting with a letter
 * (so the URL parser never reads it as an IPv4 address).
 */
const DOMAIN = '(?:[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*\\.)*[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)*';
const PORT =
  '(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?';

/**
 * An absolute http(s) URL as one pattern the API description carries (docs/decisions/053): the
 * scheme, a host name, an IPv4 or a bracketed IPv6 address, a port, then a path, query or
 * fragment of visible ASCII characters. Narrower than what the URL parser takes (no user name, no
 * white space, no non-ASCII host), which the web app never sends: it sends its own origin.
 */
export const FORWARD_TO_PATTERN = new RegExp(
  `^[Hh][Tt][Tt][Pp][Ss]?://(?:${DOMAIN}|${IPV4}|\\[(?:${IPV6})\\])${PORT}(?:[/?#][!-~]*)?$`,
);

/**
 * An absolute http(s) URL; the server also checks the origin is its own (no open redirect). The
 * pattern first, so the document states the whole rule; the URL parser then reads what matched.
 */
export const ZForwardToSchema = z
  .string({ error: FORWARD_TO_MESSAGE })
  .max(2048, { error: FORWARD_TO_MESSAGE })
  .regex(FORWARD_TO_PATTERN, { error: FORWARD_TO_MESSAGE })
  .pipe(z.url({ protocol: /^https?$/, error: FORWARD_TO_MESSAGE }));

export const ZSignupRequestFieldsSchema = z.object({
  ...ZSignupContactFieldsSchema.shape,
  phone: requestPhoneField(SIGNUP_PHONE_MESSAGES.required, SIGNUP_PHONE_MESSAGES.invalid),
  ...ZSignupSubscriptionsFieldsSchema.shape,
  ...ZSignupDealershipFieldsSchema.shape,
  ...ZPaymentTokenFieldsSchema.shape,
  promoCode: z.string().trim().max(PROMO_CODE_MAX_LENGTH).default(''),
  hasValidPromoCode: z.boolean().optional(),
  referrer: z.string().trim().max(200).default(''),
  sameAddresses: z.boolean().default(true),
  ...ZBillingAddressFieldsSchema.shape,
  leadID: z.string().trim().regex(LEAD_ID_PATTERN).optional(),
  altEmail: optionalEmailField(errorMessage('ALT_EMAIL_NOT_VALID')),
  altPhone: optionalTenDigitPhoneField('Valid 10 digit phone number is required'),
  altPhoneCountryCode: z.union([z.enum(COUNTRY_CODES), z.literal('')]).default(''),
  forwardTo: ZForwardToSchema,
});

type TSignupRequestFields = z.infer<typeof ZSignupRequestFieldsSchema>;

const BLANK_BILLING = {
  billingFirstName: '',
  billingLastName: '',
  billingCountry: '',
  billingAddress1: '',
  billingAddress2: '',
  billingCity: '',
  billingState: '',
  billingZip: '',
} as const;

/**
 * The sign-up's billing name and address, decided in one place for the browser and the server:
 * none without a card (001 §4: a promotion-only sign-up blanks them), the profile's address when
 * the same-address box is on, otherwise what was typed.
 */
function signupBilling<
  T extends Parameters<typeof billingFromAccount>[0] & { sameAddresses?: boolean },
>(values: T, hasCard: boolean) {
  if (!hasCard) return BLANK_BILLING;
  return values.sameAddresses === false ? {} : billingFromAccount(values);
}

function fillBilling<T extends TSignupRequestFields>(values: T): T {
  return { ...values, ...signupBilling(values, !isBlank(values.paymentToken)) };
}

/**
 * The final sign-up's request key (docs/decisions/031, 045): required by `POST /api/v2/signup`,
 * which charges the card, so a replayed request answers the first result and charges once.
 */
export const ZSignupKeyedFieldsSchema = ZSignupRequestFieldsSchema.extend({
  requestKey: z.uuid(),
});
/** The older `POST /api/signup` (001 §7) takes the key when its client sends one. */
export const ZSignupOlderFieldsSchema = ZSignupRequestFieldsSchema.extend({
  requestKey: z.uuid().optional(),
});

/** The server's schema for the final payload; `clock` judges the card expiry. */
export function createSignupRequestSchema(clock: TClock) {
  return refineSignup(ZSignupRequestFieldsSchema, clock);
}
/** `POST /api/v2/signup`: the payload with its request key. */
export function createKeyedSignupRequestSchema(clock: TClock) {
  return refineSignup(ZSignupKeyedFieldsSchema, clock);
}
/**
 * The older `POST /api/signup`: the payload, with a request key or without; without a forwardTo
 * the sign-in goes to `defaultForwardTo` (the server's own login page), which the description
 * shows as the default.
 */
export function createOlderSignupRequestSchema(clock: TClock, defaultForwardTo: string) {
  return refineSignup(
    ZSignupOlderFieldsSchema.extend({ forwardTo: ZForwardToSchema.default(defaultForwardTo) }),
    clock,
  );
}

/**
 * `refineSignup`'s rules in JSON Schema words (docs/decisions/053): the dealership's address by
 * its country; with a payment token its card and, unless the billing address is the dealership's
 * (`sameAddresses`, on by default), the billing address typed; without one a promotion code.
 */
const SIGNUP_JSON_SCHEMA = {
  allOf: [
    ...addressJsonSchema({ country: 'country', state: 'state', zip: 'zip' }).allOf,
    whenPaymentToken(
      {
        allOf: [
          PAYMENT_TOKEN_CARD_JSON_SCHEMA,
          {
            if: { required: ['sameAddresses'], properties: { sameAddresses: { const: false } } },
            then: BILLING_ADDRESS_JSON_SCHEMA,
          },
        ],
      },
      notBlank(['promoCode']),
    ),
  ],
};

function refineSignup<T extends TSignupRequestFields>(fields: z.ZodType<T>, clock: TClock) {
  return fields
    .transform(fillBilling)
    .superRefine((values, ctx) => {
      checkDealershipAddress(values, ctx);
      const hasToken = !isBlank(values.paymentToken);
      if (!hasToken && isBlank(values.promoCode)) {
        ctx.addIssue({
          code: 'custom',
          message: errorMessage('PAYMENT_TYPE_REQUIRED'),
          path: ['paymentToken'],
        });
      }
      if (hasToken) {
        checkPaymentToken(values, ctx, clock());
        checkBillingAddress(values, ctx);
      }
    })
    .meta(SIGNUP_JSON_SCHEMA);
}
export type TSignupRequest = z.infer<ReturnType<typeof createSignupRequestSchema>>;
export type TSignupRequestInput = z.input<typeof ZSignupRequestFieldsSchema>;

/** The sign-up form's values as the browser holds them (001 §3), card fields included. */
export type TSignupFormValues = z.input<typeof ZSignupContactFieldsSchema> &
  z.input<typeof ZSignupSubscriptionsFieldsSchema> &
  z.input<typeof ZSignupDealershipFieldsSchema> &
  TSignupPaymentFields & {
    leadID?: string;
    altEmail?: string;
    altPhone?: string;
    altPhoneCountryCode?: '' | 'US' | 'CA' | 'MX';
  };

/**
 * Builds the final payload from the form (001 §3): the card is replaced by the gateway's
 * token (null when a promotion code covers the charge), billing is blank without a card and
 * filled from the profile address when the box is on, and the phone loses its separators.
 */
export function buildSignupRequest(
  form: TSignupFormValues,
  payment: Partial<TPaymentTokenFields> | null,
  forwardTo: string,
): TSignupRequestInput {
  const {
    creditCardNumber: _number,
    creditCardCode: _cvv,
    creditCardExpiration: _expiry,
    ...rest
  } = form;
  const billing = signupBilling(form, !isBlank(payment?.paymentToken));
  return {
    ...rest,
    ...billing,
    phone: normalizePhone(form.phone ?? ''),
    paymentToken: payment?.paymentToken ?? '',
    cardBrand: payment?.cardBrand ?? '',
    cardLast4: payment?.cardLast4 ?? '',
    creditCardExpiration: payment?.creditCardExpiration ?? '',
    forwardTo,
  };
}
