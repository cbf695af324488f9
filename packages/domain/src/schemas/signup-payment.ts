/**
 * Sign-up page 4, payment information (001 §2, §4, §5). Card values are checked here in the
 * browser and then go to the gateway only (DECISIONS R5).
 */
import { z } from 'zod';
import { billingRequired } from '../forms/signup.ts';
import { isBlank } from '../validation/text.ts';
import {
  ZBillingAddressFieldsSchema,
  ZCardFieldsSchema,
  checkBillingAddress,
  checkCard,
} from './billing-fields.ts';
import type { TClock } from './billing-fields.ts';
import { CARD_MESSAGES } from './messages.ts';
import { recaptchaField } from './fields.ts';

export const PROMO_MESSAGES = {
  invalid: 'Invalid Promo Code.',
  cardOrPromo: 'To continue, enter your credit card information OR a valid promotional code.',
} as const;

export const PROMO_CODE_MAX_LENGTH = 50;

export const ZSignupPaymentFieldsSchema = z.object({
  ...ZCardFieldsSchema.shape,
  promoCode: z
    .string()
    .trim()
    .max(PROMO_CODE_MAX_LENGTH, { error: PROMO_MESSAGES.invalid })
    .default(''),
  /** Set on blur when a new code is typed (001 §4); the server checks the code itself. */
  hasValidPromoCode: z.boolean().default(false),
  /** 'Referred By' */
  referrer: z.string().trim().max(200).default(''),
  sameAddresses: z.boolean().default(true),
  ...ZBillingAddressFieldsSchema.shape,
  recaptcha: recaptchaField,
});
export type TSignupPaymentFields = z.input<typeof ZSignupPaymentFieldsSchema>;

export function checkSignupPayment(
  values: z.infer<typeof ZSignupPaymentFieldsSchema>,
  ctx: z.RefinementCtx,
  now: Date,
): void {
  const hasCard = values.creditCardNumber !== '';
  const hasPromo = values.promoCode !== '';
  if (hasPromo && !values.hasValidPromoCode) {
    ctx.addIssue({ code: 'custom', message: PROMO_MESSAGES.invalid, path: ['promoCode'] });
  }
  if (!hasCard && !hasPromo) {
    ctx.addIssue({
      code: 'custom',
      message: PROMO_MESSAGES.cardOrPromo,
      path: ['creditCardNumber'],
    });
  }
  if (hasCard) {
    checkCard(values, ctx, { cvvRequiredMessage: CARD_MESSAGES.cvvRequiredWithCard, now });
  }
  if (billingRequired(values)) checkBillingAddress(values, ctx);
}

/** Page 4's schema; `clock` judges the expiry date (pass `() => new Date()` in the app). */
export function createSignupPaymentFormSchema(clock: TClock) {
  return ZSignupPaymentFieldsSchema.superRefine((values, ctx) =>
    checkSignupPayment(values, ctx, clock()),
  );
}
export type TSignupPaymentForm = z.infer<ReturnType<typeof createSignupPaymentFormSchema>>;

/** 001 §4: with a valid promo and no card number, billing and card fields are blanked. */
export function blankPaymentFieldsForPromo<T extends Partial<TSignupPaymentFields>>(values: T): T {
  if (!values.hasValidPromoCode || !isBlank(values.creditCardNumber)) return values;
  return {
    ...values,
    creditCardNumber: '',
    creditCardExpiration: '',
    creditCardCode: '',
    billingFirstName: '',
    billingLastName: '',
    billingAddress1: '',
    billingAddress2: '',
    billingCity: '',
    billingState: '',
    billingZip: '',
  };
}
