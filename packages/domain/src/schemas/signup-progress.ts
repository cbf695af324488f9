/**
 * Partial saves, `PATCH /api/signup/detail/update/{leadID}/{step}` (001 §3, §7). Progress is
 * saved after each page has validated, so the same field rules apply; the address is optional
 * here because step 1 is saved before page 3 exists.
 */
import { z } from 'zod';
import { COUNTRY_CODES } from '../geo/countries.ts';
import { ZIP_MESSAGE } from './messages.ts';
import { ADDRESS_MAX_LENGTH, optionalText, postalField, regionField } from './fields.ts';
import { auctionAccessIdField, dealershipAuctionAccessIdField } from './signup-dealership.ts';
import { ZSignupLeadRequestSchema } from './signup-lead.ts';
import { LEAD_ID_PATTERN } from './signup-request.ts';
import { ZSubscriptionSelectionSchema } from './signup-subscriptions.ts';

export const SIGNUP_PROGRESS_STEPS = ['1', '2'] as const;

export const ZSignupProgressParamsSchema = z.object({
  leadID: z.string().regex(LEAD_ID_PATTERN),
  step: z.enum(SIGNUP_PROGRESS_STEPS),
});
export type TSignupProgressParams = z.infer<typeof ZSignupProgressParamsSchema>;

export const ZSignupStep1SaveRequestSchema = ZSignupLeadRequestSchema.pick({
  firstName: true,
  lastName: true,
  email: true,
  phone: true,
  dealershipName: true,
  termAndCondition: true,
}).extend({
  subscriptionSelection: ZSubscriptionSelectionSchema.default([]),
});
export type TSignupStep1SaveRequest = z.infer<typeof ZSignupStep1SaveRequestSchema>;

export const ZSignupStep2SaveRequestSchema = ZSignupStep1SaveRequestSchema.extend({
  dealershipAddress1: optionalText('Address', ADDRESS_MAX_LENGTH),
  dealershipAddress2: optionalText('Address line 2', ADDRESS_MAX_LENGTH),
  dealershipCountry: z.union([z.enum(COUNTRY_CODES), z.literal('')]).default(''),
  dealershipState: regionField('State is required.'),
  dealershipCity: optionalText('City'),
  dealershipPostalCode: postalField(ZIP_MESSAGE),
  userAuctionAccessId: auctionAccessIdField(),
  dealershipAuctionAccessId: dealershipAuctionAccessIdField(),
});
export type TSignupStep2SaveRequest = z.infer<typeof ZSignupStep2SaveRequestSchema>;
