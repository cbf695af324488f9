/**
 * The sign-up order summary's request and answer (DECISIONS R4, R11; docs/decisions/032): page 4
 * asks the server what the sign-up will charge, computed by `billing/order-summary.ts` as the
 * sign-up itself computes it.
 */
import { z } from 'zod';
import { PROMO_CODE_MAX_LENGTH } from './signup-payment.ts';
import { ZSignupSubscriptionsFieldsSchema } from './signup-subscriptions.ts';

/** The page's selection and the promotion code typed (empty for none). */
export const ZSignupOrderSummaryRequestSchema = z.strictObject({
  subscriptions: ZSignupSubscriptionsFieldsSchema.shape.subscriptions,
  promoCode: z.string().trim().max(PROMO_CODE_MAX_LENGTH).default(''),
});
export type TSignupOrderSummaryRequest = z.infer<typeof ZSignupOrderSummaryRequestSchema>;

/** `ISignupOrderSummary` as the API answers it. */
export const ZSignupOrderSummarySchema = z.object({
  chargedTodayCents: z.number().int(),
  nextChargeDate: z.iso.date(),
  nextChargeCents: z.number().int(),
  promotionCode: z.string().nullable(),
  promotionProblem: z.string().nullable(),
  priceChanges: z.array(
    z.object({
      effectiveDate: z.iso.date(),
      effectiveFrom: z.string(),
      oldTotalCents: z.number().int(),
      newTotalCents: z.number().int(),
    }),
  ),
  texts: z.object({
    chargedToday: z.string(),
    nextCharge: z.string(),
    priceChanges: z.array(z.string()),
  }),
});
