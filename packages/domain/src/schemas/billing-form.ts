/**
 * The account billing form (000 §2, §4, §5) and the API requests behind it:
 * `PUT /api/users/paymentProfile` and `PUT /api/users/reactivate` (000 §7, DECISIONS R4–R5).
 */
import { z } from 'zod';
import { isBlank } from '../validation/text.ts';
import {
  BILLING_ADDRESS_JSON_SCHEMA,
  PAYMENT_TOKEN_CARD_JSON_SCHEMA,
  ZBillingAddressFieldsSchema,
  ZCardFieldsSchema,
  ZPaymentTokenFieldsSchema,
  ZStoredCardFieldsSchema,
  checkBillingAddress,
  checkCard,
  checkPaymentToken,
  whenPaymentToken,
} from './billing-fields.ts';
import type { TBillingAddressFields, TClock } from './billing-fields.ts';
import { CARD_MESSAGES } from './messages.ts';

export const ZBillingFormFieldsSchema = z.object({
  sameAddresses: z.boolean().default(false),
  ...ZBillingAddressFieldsSchema.shape,
  ...ZCardFieldsSchema.shape,
});
export type TBillingFormFields = z.input<typeof ZBillingFormFieldsSchema>;

/** The billing form; billing fields are required only when the same-address box is unchecked. */
export function createBillingFormSchema(clock: TClock) {
  return ZBillingFormFieldsSchema.superRefine((values, ctx) => {
    if (!values.sameAddresses) checkBillingAddress(values, ctx);
    checkCard(values, ctx, { cvvRequiredMessage: CARD_MESSAGES.cvvRequired, now: clock() });
  });
}
export type TBillingForm = z.infer<ReturnType<typeof createBillingFormSchema>>;

/** The account's own name and address, which the same-address box copies (000 §4). */
export interface IAccountAddress {
  firstName?: string | null;
  lastName?: string | null;
  address1?: string | null;
  address2?: string | null;
  city?: string | null;
  country?: string | null;
  state?: string | null;
  zip?: string | null;
}

/** Billing fields copied from the account (000 §4, §7; 001 §3 final payload). */
export function billingFromAccount(account: IAccountAddress): TBillingAddressFields {
  const country = account.country === 'US' || account.country === 'CA' || account.country === 'MX';
  return {
    billingFirstName: account.firstName ?? '',
    billingLastName: account.lastName ?? '',
    billingAddress1: account.address1 ?? '',
    billingAddress2: account.address2 ?? '',
    billingCity: account.city ?? '',
    billingCountry: country ? (account.country as 'US' | 'CA' | 'MX') : '',
    billingState: account.state ?? '',
    billingZip: account.zip ?? '',
  };
}

const same = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim() === (b ?? '').trim();
const sameIgnoringCase = (a: string | null | undefined, b: string | null | undefined) =>
  (a ?? '').trim().toLowerCase() === (b ?? '').trim().toLowerCase();

/** 000 §4: the box starts checked when billing matches the account (names case-insensitively). */
export function billingMatchesAccount(
  billing: Partial<Record<keyof TBillingAddressFields, string | null>>,
  account: IAccountAddress,
): boolean {
  const copy = billingFromAccount(account);
  return (
    sameIgnoringCase(billing.billingFirstName, copy.billingFirstName) &&
    sameIgnoringCase(billing.billingLastName, copy.billingLastName) &&
    same(billing.billingAddress1, copy.billingAddress1) &&
    same(billing.billingAddress2, copy.billingAddress2) &&
    same(billing.billingCity, copy.billingCity) &&
    same(billing.billingCountry, copy.billingCountry) &&
    same(billing.billingState, copy.billingState) &&
    same(billing.billingZip, copy.billingZip)
  );
}

/** Unchecking the box clears the billing fields (000 §4). */
export const EMPTY_BILLING_ADDRESS: TBillingAddressFields = billingFromAccount({});

/** PUT /api/users/paymentProfile: a gateway token and the billing address, never the card. */
export const ZPaymentProfileRequestFieldsSchema = z.object({
  dealerpassUserId: z.string().trim().max(254).optional(),
  ...ZPaymentTokenFieldsSchema.shape,
  ...ZBillingAddressFieldsSchema.shape,
});

export function createPaymentProfileRequestSchema(clock: TClock) {
  return ZPaymentProfileRequestFieldsSchema.extend({
    ...ZStoredCardFieldsSchema.shape,
    /** One per card the page sends (docs/decisions/031, 038): a resend stores it no second time. */
    requestKey: z.uuid({ message: CARD_MESSAGES.requestKeyInvalid }),
  })
    .superRefine((values, ctx) => {
      if (isBlank(values.paymentToken)) {
        ctx.addIssue({
          code: 'custom',
          message: CARD_MESSAGES.numberRequired,
          path: ['paymentToken'],
        });
      } else {
        checkPaymentToken(values, ctx, clock());
      }
      checkBillingAddress(values, ctx);
    })
    .meta({ allOf: [BILLING_ADDRESS_JSON_SCHEMA] });
}
export type TPaymentProfileRequest = z.infer<ReturnType<typeof createPaymentProfileRequestSchema>>;

/**
 * PUT /api/users/reactivate. During pending cancel it carries no card (R4: restore, no charge);
 * for an inactive account the server requires the token, which is then checked like a profile.
 */
export function createReactivateRequestSchema(clock: TClock) {
  return ZPaymentProfileRequestFieldsSchema.extend({
    /**
     * One per reactivation the page sends (docs/decisions/031, 038): a resend after a lost
     * answer (a balancer's retry, a second click) charges nothing again and gets the first answer.
     */
    requestKey: z.uuid({ message: CARD_MESSAGES.requestKeyInvalid }),
  })
    .superRefine((values, ctx) => {
      if (isBlank(values.paymentToken)) return;
      checkPaymentToken(values, ctx, clock());
      checkBillingAddress(values, ctx);
    })
    .meta(
      whenPaymentToken({ allOf: [PAYMENT_TOKEN_CARD_JSON_SCHEMA, BILLING_ADDRESS_JSON_SCHEMA] }),
    );
}
export type TReactivateRequest = z.infer<ReturnType<typeof createReactivateRequestSchema>>;
